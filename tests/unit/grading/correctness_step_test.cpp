// The correctness step's verdict from a comparison (no lab run).
#include <catch2/catch.hpp>

#include "grading/correctness_step.hpp"

using namespace parlab::grader;
using Catch::Matchers::Contains;

namespace {

TestSpec gpu_test() {
  TestSpec t;
  t.name = "copy";
  t.device = Device::gpu;
  t.points = 10;
  return t;
}

}  // namespace

TEST_CASE("correctness step: a comparison's verdict, hidden data kept hidden", "[grading][steps]") {
  TestSpec t = gpu_test();
  CompareOutcome same{.ok = true};
  TestResult passed;
  apply_comparison(passed, t, same);
  CHECK(passed.status == TestStatus::passed);
  CHECK(passed.points == 10);

  CompareOutcome differs{.ok = false, .message = "values[3]: expected 1, got 2"};
  differs.mismatch = Mismatch{.array = "values", .index = 3, .expected = 1, .got = 2};
  TestResult visible;
  apply_comparison(visible, t, differs);
  CHECK(visible.status == TestStatus::failed);
  CHECK(visible.points == 0);
  CHECK(visible.message == differs.message);
  REQUIRE(visible.mismatch);
  CHECK(visible.mismatch->index == 3);

  t.visibility = Visibility::hidden;
  TestResult hidden;
  apply_comparison(hidden, t, differs);
  CHECK(hidden.status == TestStatus::failed);
  CHECK_THAT(hidden.message, Contains("wrong result on hidden data") && Contains("'values'"));
  CHECK_THAT(hidden.message, !Contains("expected 1"));
  CHECK_FALSE(hidden.mismatch);
}
