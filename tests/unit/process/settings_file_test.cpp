#include "process/settings_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <string>

using namespace parlab::grader::process;

TEST_CASE("the settings file holds the text, sealed against change, close-on-exec here") {
  const std::string text = "PARLAB_SIM_RACE_CHECK=1\nPARLAB_SIM_REPORT_KEY=00ff\n";
  UniqueFd file = sealed_settings_file(text);
  REQUIRE(file.get() >= 0);
  char buffer[256] = {};
  const ssize_t n = ::pread(file.get(), buffer, sizeof buffer, 0);
  CHECK(std::string(buffer, static_cast<std::size_t>(n)) == text);
  const int seals = ::fcntl(file.get(), F_GET_SEALS);
  CHECK((seals & F_SEAL_WRITE) != 0);
  CHECK((seals & F_SEAL_SEAL) != 0);  // the seals themselves cannot be lifted
  CHECK(::pwrite(file.get(), "X", 1, 0) < 0);
  CHECK((::fcntl(file.get(), F_GETFD) & FD_CLOEXEC) != 0);
}
