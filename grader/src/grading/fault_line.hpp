#pragma once
// The source line of a simulator fault (docs/simulation.md, "Faults"): the simulator's
// sealed stop record (parlab_sim/stop_record.hpp, grading/simulator_stop) names only the
// faulting instruction's offset in the program, since a signal handler cannot run
// addr2line and the submission's process is not trusted to name a line. After the run,
// the grader runs addr2line (sandboxed: the program's line tables are the submission's
// work) on the program it built and puts "at kernels.cu:42" into the test's message.
// An offset outside the program gives no line.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "grading/grading_context.hpp"
#include "result/result.hpp"

namespace parlab::grader {

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

// The place of the instruction at `code_offset` in `program` (built in the folder "bin"
// next to the staged sources, "src") in the student's sources, from addr2line; "" when
// it cannot be named (0 or past the program's end, no line of the submission's).
std::string fault_place_of(GradingContext& ctx, const std::filesystem::path& program,
                           std::uint64_t code_offset, const std::string& run_name);

// Names the place in `r.message` when the failed run `run` ended with a verified stop
// record carrying a code offset.
void add_fault_place(GradingContext& ctx, const TaskRun& run, TestResult& r);

}  // namespace parlab::grader
