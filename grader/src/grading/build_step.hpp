#pragma once
// The build step of a grading: the submission compiled for where its tests run, one
// grading of a submission at a time (the second reuses the cached build); and the
// results of a grading whose tests cannot run (no compile, no GPU).
#include <filesystem>
#include <vector>

#include "compile/compile_steps.hpp"
#include "compile/submission_builder.hpp"
#include "grading/grading_context.hpp"

namespace parlab::grader {

// What the submission is built as: a CPU lab for the host; a GPU lab with nvcc on a GPU,
// else (sim, or none for a lab's CPU tests) g++ builds the host variant. Pure.
BuildTarget build_target(Device lab_kind, DeviceMode mode);

// Builds `submission` into ctx.work/build under the submission's build lock.
BuiltProgram build_step(GradingContext& ctx, const std::filesystem::path& submission);

// Every test failed as not run: the submission did not compile; each says the first
// compiler error (the build section, wherever a report puts it, has them all). Tests
// this machine could not have graded anyway are not graded, as for a built submission.
std::vector<TestResult> not_compiled_results(const GradingContext& ctx, const BuildResult& build);

// The grader's own folders out of what a report shows: `folder`/ (the submission's copy,
// the work area) removed from the log and the diagnostics, so "kernels.cu:94", not
// "/var/cache/.../submission/kernels.cu:94".
void hide_grader_paths(BuildResult& build, const std::vector<std::filesystem::path>& folders);

}  // namespace parlab::grader
