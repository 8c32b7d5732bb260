#pragma once
// Memory-access counters, the way Nsight Compute counts them (docs/simulation.md,
// "Memory-access counters"), from the check build's load/store hooks. A request is one
// execution of one load or store instruction by the lanes of a warp: the k-th time
// each lane runs the instruction at that code address. Per request:
//   global memory: the 32-byte sectors it touches (a coalesced float load: 4; a stride
//                  of 32 floats: 32);
//   shared memory: the bank-conflict degree, the most distinct 4-byte words any of the
//                  32 banks must serve (the same word twice is a broadcast).
// A float4 / int4 / double2 access is one 16-byte access (one instruction on a GPU),
// though g++ may split it into four or two field accesses: a lane's accesses of one
// kind that fill a naturally aligned 8- or 16-byte piece back to back are merged
// (vector_access.hpp). Every block of a launch is counted, every request (a block keeps a
// bounded number of accesses; past it, a long loop's later requests are counted by their
// executions: BlockCounters::fold_into). PARLAB_SIM_COUNTERS=1 turns them on (with the check build);
// =2 also prints every instruction's figures on stderr. PARLAB_SIM_COUNTERS_FILE names a
// file that gets one JSON line per launch with the launch's totals (the grader compares a
// submission's with the reference's: docs/simulation.md, "Scored counter checks") and,
// at exit, one per memory instruction with its totals over the run
// (counters/run_records): the grader's memory-access hints come from those.
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "config/locked_state.hpp"
#include "counters/divergence.hpp"
#include "memory/remapped_array.hpp"
#include "counters/vector_access.hpp"
#include "parlab_sim/launch_counts.hpp"

namespace parlab_sim::detail {

// g_locked.counters_enabled (config/locked_state): the counters are on.

struct InstructionTotals {
  bool shared = false;
  bool write = false;
  std::uint64_t requests = 0;
  std::uint64_t sectors = 0;      // global: sum over requests
  std::uint64_t ideal_sectors = 0;
  std::uint64_t conflict_ways = 0;  // shared: sum of degrees
};

// One block's requests; folded into the launch's totals when the block ends.
class BlockCounters {
 public:
  void reset(bool sampled, unsigned lanes);
  bool sampled() const { return sampled_; }
  void record(const void* pc, unsigned lane, std::uintptr_t address, std::size_t bytes,
              bool shared, bool write);
  // Records the lanes' accesses still being merged into vector accesses (block end).
  void flush();
  // Adds this block's per-instruction figures to `totals`.
  void fold_into(std::map<const void*, InstructionTotals>& totals) const;
  // Threads of the block and the loads and stores they made (each lane's access counts
  // once; not capped like the requests).
  unsigned threads() const { return threads_; }
  std::uint64_t global_loads() const { return global_loads_; }
  std::uint64_t global_stores() const { return global_stores_; }
  std::uint64_t shared_accesses() const { return shared_accesses_; }

 private:
  // One lane's access, kept until the block ends; a request is the accesses with the
  // same (instruction, warp, occurrence). A flat list sorted once at the end costs far
  // less per access than a table of requests, which matters now that every block is
  // counted. `key` orders it by request, then lane, in one integer (request_key): sorting
  // 24-byte records by it costs a fraction of sorting 40-byte ones field by field, and a
  // long kernel keeps half a million accesses per block.
  struct Kept {
    std::uint64_t key;
    std::uintptr_t address;
    std::uint32_t bytes;
    bool shared;
    bool write;
  };
  // A lane's executions of one instruction (a kernel has few: searched in a short list),
  // and the instruction's index in this block (instructions_).
  struct LaneCount {
    const void* pc;
    std::uint32_t count;
    std::uint32_t instruction;
  };
  void record_merged(const VectorPiece& access, unsigned lane);
  std::uint32_t instruction_index(const void* pc);
  // The block's figures of one instruction, before scaling.
  void fold_request(const Kept* first, const Kept* end, InstructionTotals& t) const;
  bool sampled_ = false;
  unsigned threads_ = 0;
  std::uint64_t global_loads_ = 0;
  std::uint64_t global_stores_ = 0;
  std::uint64_t shared_accesses_ = 0;
  std::vector<std::vector<LaneCount>> occurrences_;  // per lane
  std::vector<VectorMerger> mergers_;                // per lane
  mutable RemappedArray<Kept> kept_;                 // sorted by fold_into
  std::vector<const void*> instructions_;            // by index: the instructions seen
  std::unordered_map<const void*, std::uint32_t> instruction_of_;
};

// Pure arithmetic of one request (unit-tested on its own).
std::uint64_t sectors_of(const std::vector<std::pair<std::uintptr_t, std::size_t>>& accesses);
std::uint64_t ideal_sectors_of(const std::vector<std::pair<std::uintptr_t, std::size_t>>& accesses);
// `accesses` in lane order; 8- and 16-byte accesses are served in 2 and 4 phases of 16
// and 8 lanes (as a GPU does), the degree is the worst phase's.
unsigned bank_conflict_degree(const std::vector<std::pair<std::uintptr_t, std::size_t>>& accesses);

// Each lane's loads and stores of one launch (every block's; not capped like requests).
struct LaneAccessCounts {
  std::uint64_t global_loads = 0;     // one per lane and global load
  std::uint64_t global_stores = 0;    // the same for stores
  std::uint64_t shared_accesses = 0;  // one per lane and shared load or store
};

// One launch's totals, the line written to PARLAB_SIM_COUNTERS_FILE.
struct LaunchSummary {
  std::uint64_t threads = 0;           // threads of the launch's blocks
  std::uint64_t global_loads = 0;      // their global loads, one per lane and load
  std::uint64_t global_stores = 0;     // their global stores, the same
  std::uint64_t shared_accesses = 0;   // their shared loads and stores, the same
  std::uint64_t global_requests = 0;   // global requests (loads and stores)
  std::uint64_t global_sectors = 0;
  std::uint64_t global_ideal_sectors = 0;
  std::uint64_t shared_requests = 0;
  std::uint64_t shared_conflict_ways = 0;
  DivergenceSummary divergence;        // branch divergence of the sampled warps
};
LaunchSummary summarize(const std::map<const void*, InstructionTotals>& totals,
                        std::uint64_t threads, const LaneAccessCounts& lane_accesses);
// The launch's record as the grader reads it (parlab_sim/launch_counts.hpp).
parlab_sim::LaunchCounts launch_counts(const LaunchSummary& s);
// The JSON line for one launch (kernel name reduced to identifier characters): every
// field of the shared record, by its shared name.
std::string summary_json_line(const char* kernel_name, const LaunchSummary& s);
// A kernel's name as the records carry it: at most 120 characters, any but identifier
// and template characters as '?'.
std::string reduced_kernel_name(std::string_view kernel_name);
// The same for any record: a launch's, or the run's last (parlab_sim::kLaunchTailName).
std::string counts_json_line(std::string_view kernel_name, const parlab_sim::LaunchCounts& counts);

// One launch's access totals: each counted block's figures folded in when it ends (from
// the workers, under the mutex), read once when the launch ends.
struct LaunchAccessTotals {
  std::mutex mutex;
  std::map<const void*, InstructionTotals> instructions;
  std::uint64_t threads = 0;
  LaneAccessCounts lane_accesses;
};

// What the counters gather over one launch: the launch owns it (runtime/launch.cpp), the
// block runners reach it through their GridJob, so no launch's figures can mix with
// another's.
struct LaunchCounters {
  LaunchAccessTotals access;
  LaunchDivergenceTotals divergence;
};

// A launch ends: its line on the counters channel, its instructions added to the run's
// (counters/instruction_records), its branch divergence reported.
void report_launch_counters(const char* kernel_name, LaunchCounters& launch);
// Called by a block runner when its counted block of `launch` ends.
void fold_block_counters(BlockCounters& block, LaunchAccessTotals& launch);

}  // namespace parlab_sim::detail
