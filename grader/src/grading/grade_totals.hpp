#pragma once
// The last step of a grading: the score and the graded total from the tests' results
// (a test not graded here counts in neither), rounded like every score. Pure.
#include "result/result.hpp"

namespace parlab::grader {

void add_totals(GradeResult& result);

}  // namespace parlab::grader
