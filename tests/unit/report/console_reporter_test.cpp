#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "report/reporter.hpp"
#include "sample_results.hpp"

using namespace parlab::grader;
using namespace parlab::grader::testing;
using Catch::Matchers::Contains;

TEST_CASE("console colors only when asked", "[report][console]") {
  const GradeResult r = sample_grade_result();
  CHECK(make_reporter("console", {})->render(r).find('\x1b') == std::string::npos);
  CHECK_THAT(make_reporter("console", {.color = true})->render(r), Contains("\x1b[31mfailed"));
}

TEST_CASE("console shows the table, total and teaching details", "[report][console]") {
  const std::string out = make_reporter("console", {})->render(sample_grade_result());
  CHECK_THAT(out, Contains("Test" + std::string(25, ' ') + "Status"));
  CHECK_THAT(out, Contains("1.42x \xC2\xB1" "6%"));
  CHECK_THAT(out, Contains("\nTotal: 25.33 / 100\n"));
  CHECK_THAT(out, Contains("First mismatch: file_mean[17] (sensors_017.csv): expected 20.5, "
                           "got NaN, tolerance rtol 1e-09, atol 1e-12"));
  CHECK_THAT(out, Contains("3 of 64 elements differ"));
  CHECK_THAT(out, Contains("Run: crashed (killed by a signal)"));
  CHECK_THAT(out, Contains("      | Segmentation fault (core dumped)"));
  CHECK_THAT(out, Contains("Fresh seed:  2718281828"));
}

TEST_CASE("console lines carry no trailing spaces", "[report][console]") {
  for (bool verbose : {false, true}) {
    std::istringstream lines(make_reporter("console", {.verbose = verbose})->render(sample_grade_result()));
    for (std::string line; std::getline(lines, line);) {
      INFO(line);
      CHECK((line.empty() || line.back() != ' '));
    }
  }
}

TEST_CASE("console neutralizes terminal control sequences in student output", "[report][console]") {
  GradeResult r = sample_grade_result();
  r.tests[4].stderr_tail = "\x1b[2Jcleared\r\nline\n";
  const std::string out = make_reporter("console", {})->render(r);
  CHECK(out.find('\x1b') == std::string::npos);
  CHECK_THAT(out, Contains("\\x1b[2Jcleared\n"));
}
