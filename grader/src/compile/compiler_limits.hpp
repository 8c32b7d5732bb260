#pragma once
// The compiler is a child like any other: the submission's source decides how much
// memory and time it takes (`#include "/dev/zero"`, a template bomb), so it runs
// under limits, and when it hits one the student reads which, in words.
#include <string>

#include "compile/compile_steps.hpp"
#include "process/process_runner.hpp"

namespace parlab::grader {

// Limits for one compile step of `target`. g++ (host and sim builds) gets a 4 GiB
// address-space cap. nvcc keeps none: `-arch=native` makes it query the GPU through the
// CUDA driver, which reserves huge virtual ranges (its own compile of every reference
// fits in 4 GiB, measured without a GPU; the query could not be tried), so an nvcc
// bomb is bounded by the CPU and wall limits only.
ResourceLimits compiler_limits(BuildTarget target);

// Why the compiler stopped, worded for a student ("the compiler ran out of memory
// ..."), or "" when it simply reported errors in the code (exit status 1 with
// diagnostics). Recognises both the grader's own verdict (outcome) and what gcc
// says when one of its processes meets a limit (cc1plus "out of memory", "CPU time
// limit exceeded signal terminated program", "Killed signal terminated program").
std::string compiler_stop_reason(const RunResult& run, const ResourceLimits& limits);

}  // namespace parlab::grader
