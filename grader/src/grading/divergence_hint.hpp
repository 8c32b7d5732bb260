#pragma once
// The warp-divergence hint from a sim run's facts (docs/simulation.md, "Branch divergence
// per warp"): the runtime writes each kernel's divergence totals in its launch lines
// (parlab_sim/launch_counts.hpp) and each divergent code block of the student's over the
// run (parlab_sim/code_block_counts.hpp); the grader judges which kernels deserve a hint,
// names their worst lines (grading/code_place_names) and words it. The hint is judged
// again against the reference's divergence before a test shows it (grading/sim_mode).
#include <string>
#include <utility>
#include <vector>

#include "grading/code_place_names.hpp"
#include "grading/sim_counters.hpp"
#include "grading/sim_finding.hpp"
#include "parlab_sim/code_block_counts.hpp"

namespace parlab::grader {

inline constexpr const char* kWarpDivergenceKind = "warp_divergence";

struct RunCodeBlock {
  std::string kernel;
  parlab_sim::CodeBlockCounts counts;
};

// The code block records among the counters channel's lines; a malformed record, or one
// whose numbers no run can have (more divergent runs than runs, no length), is left out.
// At most parlab_sim::kMaxCodeBlockRecords.
std::vector<RunCodeBlock> parse_code_block_records(const std::string& text);

// A kernel gets a hint when at least this share of its work (code length x warp runs)
// ran divergent, over the run's launches of it.
inline constexpr double kDivergentWorkShareHint = 0.10;
// The hint names at most this many of the kernel's worst lines.
inline constexpr std::size_t kWorstDivergentLines = 3;

// The findings ("warp_divergence") of the kernels in `kernels` (their totals over the
// run, sim_counters_by_kernel) whose divergent share reaches the threshold, each naming
// the lines of its worst code blocks in `blocks` (the most divergent work first, then
// divergent in the most warps) that `place_of` can name.
std::vector<SimFinding> divergence_findings(const std::vector<std::pair<std::string, CounterTotals>>& kernels,
                                            const std::vector<RunCodeBlock>& blocks,
                                            const InstructionPlaceNamer& place_of);

}  // namespace parlab::grader
