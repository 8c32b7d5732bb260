#include <catch2/catch.hpp>

#include <sstream>

#include "cli/grade_progress.hpp"

using namespace parlab::grader;
using Catch::Matchers::Contains;

TEST_CASE("progress names the step and the test's place in the lab", "[cli][progress]") {
  std::ostringstream out;
  GradeProgress progress(out, {"small", "large", "speedup"}, false, false);
  CHECK(progress.describe("test: large") == "testing large (test 2/3)");
  CHECK(progress.describe("measuring: speedup") == "measuring speedup (test 3/3)");
  CHECK(progress.describe("building /home/s/lab01") == "building /home/s/lab01");
  CHECK(progress.describe("test: unknown") == "testing unknown");
}

TEST_CASE("piped without -v, progress adds nothing but notices", "[cli][progress]") {
  std::ostringstream out;
  {
    GradeProgress progress(out, {"small"}, false, false);
    progress.step("building x");
    progress.step("test: small");
    CHECK(out.str().empty());
    progress.notice("waiting for the measurement lock: held by pid 7 (grade lab01)");
  }
  CHECK_THAT(out.str(), Contains("grade: waiting for the measurement lock: held by pid 7 (grade lab01) (since "));
  CHECK(out.str().find('\r') == std::string::npos);
}

TEST_CASE("with -v every step is one timestamped line", "[cli][progress]") {
  std::ostringstream out;
  GradeProgress progress(out, {"small"}, false, true);
  progress.step("test: small");
  CHECK(out.str() == "grade: [0:00] testing small (test 1/1)\n");
}

TEST_CASE("on a terminal one status line is redrawn, then cleared", "[cli][progress]") {
  std::ostringstream out;
  GradeProgress progress(out, {"small"}, true, false);
  progress.step("test: small");
  progress.finish();
  const std::string text = out.str();
  CHECK_THAT(text, Contains("\r\x1b[Kgrade: [0:00] testing small (test 1/1)"));
  CHECK(text.size() >= 4);
  CHECK(text.substr(text.size() - 4) == "\r\x1b[K");  // cleared before the report
}

TEST_CASE("the status line stays narrower than the terminal", "[cli][progress]") {
  std::ostringstream out;
  const std::string long_name = "a test name long enough to wrap an eighty-column terminal, "
                                "which would leave its first part on screen";
  GradeProgress progress(out, {long_name}, true, false, 80);
  progress.step("test: " + long_name);
  progress.finish();
  const std::string text = out.str();
  const std::size_t start = text.find("grade: [");
  REQUIRE(start != std::string::npos);
  const std::string line = text.substr(start, text.find('\r', start) - start);
  CHECK(line.size() == 79);  // ASCII: bytes are columns
  CHECK(line.ends_with("..."));
}
