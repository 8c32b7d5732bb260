#pragma once
// The lines of a sim program's instructions, named by the grader (docs/simulation-design.md,
// "Addresses to lines"): the runtime reports where an instruction is as its offset in
// the program (parlab_sim/instruction_counts.hpp), and the grader names it as the
// student knows it ("kernels.cu:42") from the program's code places table
// (parlab_sim/code_places_table.hpp, worked out once per program, sandboxed), else from
// addr2line run sandboxed on the program (grading/fault_line), the same rule as a fault's.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "parlab_sim/code_places_table.hpp"

namespace parlab::grader {

class GradingContext;

// An instruction's offset -> the student's place, "" when none can be named.
using InstructionPlaceNamer = std::function<std::string(std::uint64_t)>;

// The place `table` gives the instruction at `offset` (its own entry, not a stretch: a
// stretch is code without lines) in the sources staged under `stage`: "" when the entry
// names no line of the student's sources (the simulator's or the standard library's
// code, a launch lambda's host line), nothing when the table has no entry for it. `table` sorted by offset, as decoded.
std::optional<std::string> table_place_of(const std::vector<parlab_sim::CodePlaceEntry>& table,
                                          std::uint64_t offset, const std::filesystem::path& stage);

// Names the instructions of the submission's program in `ctx` (sim mode): by its code
// places table, else by addr2line (one sandboxed run per offset, named after `run_name`).
InstructionPlaceNamer instruction_place_namer(GradingContext& ctx, const std::string& run_name);

}  // namespace parlab::grader
