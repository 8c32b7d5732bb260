#pragma once
// One correctness test of a grading: the submission's run of the test's task on its
// dataset, compared with the reference's outputs. The run comes back too, for what a
// device mode adds after it (grading/mode_extras).
#include "compare/comparator.hpp"
#include "grading/grading_context.hpp"

namespace parlab::grader {

struct CorrectnessRun {
  TestResult result;
  TaskRun run;
};

CorrectnessRun run_correctness(GradingContext& ctx, const TestSpec& t);

// The verdict of a run that gave readable outputs: passed with the points, or failed
// with the first difference; on hidden data, where it is, never what (pure).
void apply_comparison(TestResult& r, const TestSpec& t, const CompareOutcome& cmp);

}  // namespace parlab::grader
