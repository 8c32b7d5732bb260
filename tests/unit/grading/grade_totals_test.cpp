// The result step of a grading: the score and the graded total.
#include <catch2/catch.hpp>

#include "grading/grade_totals.hpp"
#include "score/scoring.hpp"

using namespace parlab::grader;

namespace {

TestResult scored(TestStatus status, double points, double max_points) {
  TestResult r;
  r.status = status;
  r.points = points;
  r.max_points = max_points;
  return r;
}

}  // namespace

TEST_CASE("result step: the score sums the points, not graded here leaves the graded total",
          "[grading][steps]") {
  GradeResult result;
  result.tests = {scored(TestStatus::passed, 10, 10), scored(TestStatus::partial, 3.3333333, 10),
                  scored(TestStatus::not_graded, 0, 20), scored(TestStatus::failed, 0, 5)};
  add_totals(result);
  CHECK(result.score == Approx(13.33).margin(0.01));
  CHECK(result.score == round_points(result.score));
  CHECK(result.graded_max_score == 25);
}
