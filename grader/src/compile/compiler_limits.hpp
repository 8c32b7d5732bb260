#pragma once
// The compiler is a child like any other: the submission's source decides how much
// memory and time it takes (`#include "/dev/zero"`, a template bomb), so it runs
// under limits, and when it hits one the student reads which, in words.
#include <string>

#include "compile/compile_steps.hpp"
#include "process/process_runner.hpp"

namespace parlab::grader {

// Limits for one compile step of `target`. nvcc's tools reserve very large virtual
// address ranges, so the address-space limit stays off for it (its wall and CPU limits
// still bound a bomb); g++ (host and sim builds) gets a fixed address-space cap.
ResourceLimits compiler_limits(BuildTarget target);

// Why the compiler stopped, worded for a student ("the compiler ran out of memory
// ..."), or "" when it simply reported errors in the code (exit status 1 with
// diagnostics). Recognises both the grader's own verdict (outcome) and what gcc
// says when one of its processes meets a limit (cc1plus "out of memory", "CPU time
// limit exceeded signal terminated program", "Killed signal terminated program").
std::string compiler_stop_reason(const RunResult& run, const ResourceLimits& limits);

}  // namespace parlab::grader
