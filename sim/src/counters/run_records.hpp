#pragma once
// The run's counted facts for the grader, written at exit on the counters channel beside
// the launch lines: each memory instruction's requests, sectors and conflict ways
// (parlab_sim/instruction_counts.hpp) and each divergent code block's runs
// (parlab_sim/code_block_counts.hpp), added up over the run's launches, the largest
// first. The grader decides which deserve a hint (coalescing, bank conflicts, warp
// divergence), names their lines and words the hint (grader/src/grading/memory_hints,
// divergence_hint); the runtime judges none.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "counters/access_counters.hpp"
#include "counters/divergence.hpp"
#include "parlab_sim/code_block_counts.hpp"
#include "parlab_sim/instruction_counts.hpp"

namespace parlab_sim::detail {

// The offset of the instruction before `return_address` (a hook's caller) as the code
// places table and addr2line key it; 0 when it is not in the executable's code.
std::uint64_t instruction_code_offset(const void* return_address);

// Adds a finished launch's memory instructions to the run's. An instruction outside the
// executable's code (none of the submission's) is left out.
void add_launch_instructions(std::string_view kernel_name,
                             const std::map<const void*, InstructionTotals>& totals);

// Adds a finished launch's divergent code blocks among the `counted` ones (the student's)
// to the run's, each `length_of` bytes long.
void add_launch_code_blocks(std::string_view kernel_name,
                            const std::unordered_map<const void*, CodeBlockTotals>& per_block,
                            const std::unordered_map<const void*, bool>& counted,
                            const std::unordered_map<const void*, std::uint32_t>& length_of);

// One record's JSON line (no newline), the kernel name reduced as the launch lines'.
std::string instruction_json_line(std::string_view kernel_name, const parlab_sim::InstructionCounts& counts);
std::string code_block_json_line(std::string_view kernel_name, const parlab_sim::CodeBlockCounts& counts);

// The run's records so far: at most kMaxInstructionRecords instructions, the most
// requests first, then at most kMaxCodeBlockRecords code blocks, the most divergent work
// first.
std::vector<std::string> run_record_lines();

}  // namespace parlab_sim::detail
