#include "grading/grade_totals.hpp"

#include "score/scoring.hpp"

namespace parlab::grader {

void add_totals(GradeResult& result) {
  result.score = 0;
  result.graded_max_score = 0;
  for (const TestResult& r : result.tests) {
    result.score += r.points;
    if (counts_in_graded_total(r.status)) result.graded_max_score += r.max_points;
  }
  result.score = round_points(result.score);
  result.graded_max_score = round_points(result.graded_max_score);
}

}  // namespace parlab::grader
