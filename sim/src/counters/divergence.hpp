#pragma once
// Branch divergence per warp (docs/simulation.md, "Branch divergence per warp"), from the
// check build's coverage hook: g++'s -fsanitize-coverage=trace-pc calls
// __sanitizer_cov_trace_pc() at the start of every basic block ("code block") of the
// student's CUDA sources (exec/tsan_hooks.cpp). For the sampled warps (two blocks of a
// launch drawn from the seed, exec/sampled_blocks; their first warps) it counts, per code address, how many times each
// lane ran the block. A code block that some present lanes of a warp ran and others did
// not, or that lanes ran a different number of times (a loop whose trip count depends on
// the lane), is divergent for that warp: on a GPU the warp runs it once per distinct path,
// with the other lanes idle.
//
// Per launch: the sampled (warp, code block) pairs, the divergent ones, the same weighted
// by runs (a block run 100 times by lane 0 and 60 by lane 1 is 100 warp runs, 40 of them
// divergent), and weighted by runs and by each block's length in bytes
// (counters/code_block_length.hpp): the share of the work that is divergent, which is
// what the grader's hint is judged on (grader/src/grading/divergence_hint). A one-line
// halo load or a warp leader's atomic is a small share of a kernel's work; an interleaved
// reduction's add, run in every warp by a few lanes, is not. Cost: one thread-local load and a branch per code block outside
// the sampled warps; a flat hash-table probe inside them.
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace parlab_sim::detail {

class BlockDivergence;
// The running block's divergence counts while it is sampled; null otherwise (host code,
// blocks not sampled, counters off). Set by the block runner.
extern thread_local constinit BlockDivergence* t_divergence;

// Called by __sanitizer_cov_trace_pc when t_divergence is set.
void divergence_record(BlockDivergence& block, const void* pc);

// One warp's runs of one code block: the most and fewest runs over the warp's present
// lanes (unit-tested on its own).
// A block that at most two lanes ran, or that every present lane but at most two ran the
// most times (the lanes' runs add up to at most 2 x `most`, or to at least (present - 2) x
// `most`), is side work of one lane per row: a halo element loaded by the first or last
// thread of a tile row (a warp holds two rows of a 16-wide tile), a warp leader's atomic
// for its peers, a bounds check at the data's edge. A GPU runs it once for those lanes and
// no branch condition could make it the same for the warp: it counts as not divergent.
// An interleaved reduction's add (half the lanes, then a quarter, ...) is not.
struct WarpBlockRuns {
  std::uint32_t most = 0;
  std::uint32_t fewest = 0;
  bool side_work = false;
  bool divergent() const { return most != fewest && !side_work; }
};
WarpBlockRuns warp_block_runs(const std::uint32_t (&runs)[32], unsigned present_lanes);

// Whether `mine` and `other` are the two sides of one branch: their runs add up to the
// same count for each present lane (at least one), so every lane took one side or the
// other each time. A student's block whose other side is the simulator's code (`if (lane
// == leader) atomicAdd(...)`: the atomic is inlined runtime code, and g++ copies the
// loop's increment onto both sides) is the join a GPU's lanes reach together, not
// divergence of the student's.
bool sides_of_one_branch(const std::uint32_t (&mine)[32], const std::uint32_t (&other)[32],
                         unsigned present_lanes);
// Whether `mine` ran exactly as `other` did, lane by lane (at least one run): the same
// path. A student's block on the same path as the simulator's divergent code (the copied
// increment after a leader's atomic) is that branch's side work, not the student's
// divergence.
bool same_path(const std::uint32_t (&mine)[32], const std::uint32_t (&other)[32],
               unsigned present_lanes);

// Per code address, over the sampled warps of a launch.
struct CodeBlockTotals {
  std::uint64_t warp_blocks = 0;     // sampled warps that ran it
  std::uint64_t divergent = 0;       // of those, warps whose lanes ran it unevenly
  std::uint64_t warp_runs = 0;       // sum over warps of the most runs by one lane
  std::uint64_t divergent_runs = 0;  // sum over warps of most - fewest
  std::uint32_t divergent_warp_mask = 0;  // bit: sampled block x 8 + warp
};

// One launch's divergence totals, in the counters' per-launch line.
struct DivergenceSummary {
  std::uint64_t warps = 0;            // sampled warps
  std::uint64_t divergent_warps = 0;  // with at least one divergent code block
  std::uint64_t warp_blocks = 0;
  std::uint64_t divergent_warp_blocks = 0;
  std::uint64_t warp_block_runs = 0;
  std::uint64_t divergent_runs = 0;
  std::uint64_t code_bytes = 0;            // sum of length x warp runs
  std::uint64_t divergent_code_bytes = 0;  // sum of length x divergent warp runs
};

class BlockDivergence {
 public:
  static constexpr unsigned kSampledWarps = 8;  // per sampled block

  // `sample`: which of the launch's sampled blocks (0 or 1).
  void reset(bool sampled, unsigned lanes, unsigned sample = 0);
  bool sampled() const { return sampled_; }
  void record(const void* pc, unsigned lane);
  // Adds this block's figures to the launch's, and its sampled warps. `library`: the
  // code addresses of the simulator's and the standard library's code (not the student's).
  void fold_into(std::unordered_map<const void*, CodeBlockTotals>& totals,
                 std::uint64_t& sampled_warps,
                 const std::unordered_map<const void*, bool>& library = {}) const;
  // The code addresses this block ran (for telling the student's from the library's).
  std::vector<const void*> code_addresses() const;

 private:
  struct Entry {
    const void* pc = nullptr;  // null: empty slot
    unsigned warp = 0;
    std::uint32_t runs[32] = {};
  };
  Entry* find_or_insert(const void* pc, unsigned warp);
  void grow();

  bool sampled_ = false;
  bool full_ = false;  // the table reached its cap: later new code blocks are not counted
  unsigned lanes_ = 0;
  unsigned sample_ = 0;
  std::size_t used_ = 0;
  std::vector<Entry> table_;  // open addressing, power-of-two size
};

// One launch's divergence totals: each sampled block's counts folded in when it ends
// (from the workers, under the mutex), read once when the launch ends. The launch owns
// them (runtime/launch.cpp); the block runners reach them through their GridJob.
struct LaunchDivergenceTotals {
  std::mutex mutex;
  std::unordered_map<const void*, CodeBlockTotals> code_blocks;
  std::uint64_t sampled_warps = 0;
};

// Called by a block runner when a sampled block of `launch` ends.
void fold_block_divergence(const BlockDivergence& block, LaunchDivergenceTotals& launch);

// The totals over the code blocks `counted` (the student's), and the sampled warps;
// `length_of` gives a code block's length in bytes (absent: kUnknownCodeBlockBytes).
DivergenceSummary summarize_divergence(const std::unordered_map<const void*, CodeBlockTotals>& per_block,
                                       std::uint64_t sampled_warps,
                                       const std::unordered_map<const void*, bool>& counted,
                                       const std::unordered_map<const void*, std::uint32_t>& length_of);

// A launch ends: its totals over the student's code blocks (those whose code is in the
// simulator's or the standard library's headers are left out: a GPU has no such
// branches, like the first thread of a block registering its __shared__ arrays); its
// divergent code blocks added to the run's records (counters/run_records), from which
// the grader judges a hint and names its lines; with `print_all`, one stderr line with
// the figures and the worst lines.
DivergenceSummary report_launch_divergence(const char* kernel_name, bool print_all,
                                           LaunchDivergenceTotals& launch);

}  // namespace parlab_sim::detail
