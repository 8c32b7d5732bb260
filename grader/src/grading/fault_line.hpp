#pragma once
// The source line of a simulator fault (docs/simulation.md, "Faults"): the simulator's
// report names only the faulting instruction's offset in the program ("at code offset
// 0x1a2b3 of the program", sim/src/fault/code_offset.hpp), since a signal handler
// cannot run addr2line and the submission's process is not trusted to name a line.
// After the run, the grader runs addr2line (sandboxed: the program's line tables are
// the submission's work) on the program it built and puts "at kernels.cu:42" into the
// test's message. The offset is the submission's output: a malformed or implausible one
// gives no line, and a forged one can only name a line of the submission's own sources
// in a test that already failed (it changes no verdict).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "grading/grading_context.hpp"
#include "result/result.hpp"

namespace parlab::grader {

// The code offset in the simulator's last report ("parlab-sim: ...") on `stderr_text`;
// nothing when there is none, or it is not 1 to 16 lowercase hex digits followed by
// " of the program", or it is 0 or not below `program_bytes` (the program's file size).
std::optional<std::uint64_t> reported_code_offset(const std::string& stderr_text,
                                                  std::uint64_t program_bytes);

// From `addr2line -i` output for one address (its frames, innermost first, one
// "file:line" a line): the innermost frame in the submission's sources, staged under
// `stage`, as the student knows it ("kernels.cu:42", "common/helpers.cuh:7"); "" when
// none is (the simulator's or the standard library's headers, no line information). A
// line addr2line gives to a rewritten copy (stage/sim/kernels.cu.cpp:42) is the
// original's (kernels.cu:42) where the staged original has that line.
std::string student_place(const std::string& addr2line_output, const std::filesystem::path& stage);

// "invalid device memory access in a kernel: ..." becomes "invalid device memory access
// in a kernel at kernels.cu:42: ...", "host code read device memory: ..." becomes "host
// code read device memory at kernels.cu:42: ..."; any other message gets
// " (at kernels.cu:42)" after its first sentence part instead.
std::string with_fault_place(const std::string& message, const std::string& place);

// For a run that ended with a simulator report carrying a code offset: the place of the
// faulting instruction in the student's sources, from addr2line on `program` (built in
// the folder "bin" next to the staged sources, "src"); "" when it cannot be named.
std::string fault_place_of(GradingContext& ctx, const std::filesystem::path& program,
                           const std::string& stderr_text, const std::string& run_name);

// Names the place in `r.message` when the failed run `run` ended with such a report.
void add_fault_place(GradingContext& ctx, const TaskRun& run, TestResult& r);

}  // namespace parlab::grader
