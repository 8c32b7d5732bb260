#pragma once
// Correct code the simulator does not run (inline PTX, a launch from device code, a
// cuda::barrier of another scope; docs/simulation.md, "Not supported, said so"): the
// run stops with the simulator's kSimUnsupportedFeatureExitCode and a sealed finding
// "FEATURE at FILE:LINE". Such a test is "not graded here: needs a GPU (FEATURE at
// FILE:LINE)": no points, none lost. The exit status alone is not enough (any program
// can exit 92): without a verified finding the run stays a failed one.
#include "grading/lab_runner.hpp"
#include "result/result.hpp"

namespace parlab::grader {

// The feature and place the run's sealed findings name, when it stopped at one; "" else.
std::string unsupported_feature_of(const TaskRun& run);

// When `run` stopped at an unsupported feature: `r` becomes not graded (no points, the
// feature and its place in the message) and true; else `r` is unchanged and false.
bool leave_out_unsupported_feature(const TaskRun& run, TestResult& r);

}  // namespace parlab::grader
