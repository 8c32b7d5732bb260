#pragma once
// The reference-runs step of a grading: every reference run the tests will need, before
// any submission code runs (its build included): item 3 of docs/sandbox.md's table.
#include "grading/grading_context.hpp"
#include "grading/mode_extras.hpp"

namespace parlab::grader {

void run_reference_step(GradingContext& ctx, ModeExtras& extras);

}  // namespace parlab::grader
