#pragma once
// Correct code the simulator does not run (inline PTX, a launch from device code, a
// cuda::barrier of another scope; docs/simulation.md, "Not supported, said so"): the
// run stops with the simulator's kExitUnsupportedFeature and a sealed finding
// "FEATURE at FILE:LINE". Such a test is "not graded here: needs a GPU (FEATURE at
// FILE:LINE)": no points, none lost. The exit status alone is not enough (any program
// can exit 92): without the started process's verified stop record
// (grading/simulator_stop) and a verified finding the run stays a failed one.
#include "grading/lab_runner.hpp"
#include "result/result.hpp"

namespace parlab::grader {

// The feature and place the run's sealed findings name, when it stopped at one; "" else.
std::string unsupported_feature_of(const TaskRun& run);

// When `run` stopped at an unsupported feature: `r` becomes not graded (no points, the
// feature and its place in the message) and true; else `r` is unchanged and false.
bool leave_out_unsupported_feature(const TaskRun& run, TestResult& r);

// A sim build that one of the simulator's own headers stopped (sim/include/cuda_compat:
// an #error "parlab sim: <cuda_fp16.h> is not supported by the simulator ..." for a
// library it does not provide): that header, and where the submission included it,
// from the compiler's "In file included from kernels.cu:3" ("<cuda_fp16.h> at
// kernels.cu:3"); "" when the build failed for another reason. Read from the compiler's
// output, which the submission can shape: it can only turn its own failed build, which
// scores nothing, into tests that score nothing here.
std::string unsupported_header_of(const BuildResult& build);

}  // namespace parlab::grader
