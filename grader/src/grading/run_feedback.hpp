#pragma once
// What a test result shows of a child's run: a failed run's outcome and reason, and
// capped tails of its output (untrusted text, escaped by the reporters).
#include <string>

#include "grading/lab_runner.hpp"
#include "result/result.hpp"

namespace parlab::grader {

// The last 4000 bytes, marked when the runner had already truncated the stream.
std::string output_tail(const std::string& text, bool truncated);

// The test failed through this run: status, outcome, reason and output tails.
void fail_from_run(TestResult& r, const TaskRun& run);

}  // namespace parlab::grader
