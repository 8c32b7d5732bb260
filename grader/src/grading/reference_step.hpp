#pragma once
// The reference-runs step of a grading: every reference run the tests will need, before
// any submission code runs (its build included): item 3 of docs/sandbox.md's table.
#include <functional>

#include "grading/grading_context.hpp"
#include "grading/mode_extras.hpp"

namespace parlab::grader {

// `graded`: the tests this grading runs (--only leaves the rest out: their reference
// runs would be thrown away unread).
void run_reference_step(GradingContext& ctx, ModeExtras& extras,
                        const std::function<bool(const TestSpec&)>& graded);

}  // namespace parlab::grader
