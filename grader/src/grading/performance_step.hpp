#pragma once
// One performance test of a grading, measured here: its setup (the baseline, the
// candidate, the serial and witness runs it needs) handed to grading/performance_test.
#include <map>
#include <string>

#include "grading/grading_context.hpp"

namespace parlab::grader {

// `done`: the results so far (a test the gate refuses is not graded or skipped).
TestResult run_performance(GradingContext& ctx, const TestSpec& t,
                           const std::map<std::string, TestResult>& done);

// The program a performance spec's baseline runs: the submission, the CPU reference, or
// the reference built like the submission (pure).
std::filesystem::path baseline_executable(const GradingContext& ctx, const PerformanceSpec& p);

}  // namespace parlab::grader
