// The console fits the terminal: its width from the tty, else COLUMNS, within 60..100.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>

#include "cli/terminal_width.hpp"

using namespace parlab::grader;

TEST_CASE("the report width follows the terminal within 60 to 100 columns", "[cli][terminal]") {
  CHECK(report_width(0) == 100);  // unknown (piped): as before
  CHECK(report_width(80) == 80);
  CHECK(report_width(40) == 60);
  CHECK(report_width(200) == 100);
}

TEST_CASE("COLUMNS gives the width when the descriptor is not a terminal", "[cli][terminal]") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  ::setenv("COLUMNS", "72", 1);
  CHECK(terminal_columns(fds[1]) == 72);
  ::setenv("COLUMNS", "wide", 1);
  CHECK(terminal_columns(fds[1]) == 0);
  ::unsetenv("COLUMNS");
  CHECK(terminal_columns(fds[1]) == 0);
  ::close(fds[0]);
  ::close(fds[1]);
}
