// Hidden tests must not teach their data: a student could otherwise read the hidden
// inputs or expected values back out of the report.
#include <catch2/catch.hpp>

#include <string>

#include "report/reporter.hpp"
#include "sample_results.hpp"

using namespace parlab::grader;
using namespace parlab::grader::testing;
using Catch::Matchers::Contains;

TEST_CASE("derived reports never reveal a hidden test's data", "[report][hidden]") {
  const GradeResult r = sample_grade_result();
  for (const char* format : {"console", "markdown", "gradescope", "junit"}) {
    for (bool verbose : {false, true}) {
      INFO(format << (verbose ? " verbose" : ""));
      const std::string out = make_reporter(format, {.verbose = verbose})->render(r);
      CHECK(out.find(kHiddenLabel) == std::string::npos);
      CHECK(out.find(kHiddenExpected) == std::string::npos);
      CHECK(out.find(kHiddenGot) == std::string::npos);
      CHECK(out.find(kHiddenStderr) == std::string::npos);
      CHECK(out.find(kHiddenDataset) == std::string::npos);
      // ... but the test itself and its message are shown.
      CHECK_THAT(out, Contains("correctness_hidden"));
      CHECK_THAT(out, Contains("hidden dataset: check files whose last line has no newline"));
    }
  }
}

TEST_CASE("the same data is shown when the test is visible", "[report][hidden]") {
  // Guards the test above: it must fail if hiding stopped working, not pass vacuously.
  GradeResult r = sample_grade_result();
  r.tests[3].visibility = Visibility::visible;
  for (const char* format : {"console", "markdown", "gradescope", "junit"}) {
    INFO(format);
    const std::string out = make_reporter(format, {})->render(r);
    CHECK_THAT(out, Contains(kHiddenExpected) && Contains(kHiddenGot) && Contains(kHiddenStderr));
  }
}

TEST_CASE("the canonical JSON keeps hidden data for instructors", "[report][hidden]") {
  const std::string json = make_reporter("json", {})->render(sample_grade_result());
  CHECK_THAT(json, Contains(kHiddenLabel) && Contains(kHiddenStderr));
}
