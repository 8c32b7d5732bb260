#pragma once
// One kernel launch's counts, as the runtime writes them to its counters channel (one
// sealed JSON object a line, PARLAB_SIM_COUNTERS_FILE) and as the grader reads them back
// (grading/sim_counters): the fields, their names and their groups are defined here once,
// for both sides. Facts only, counted over the launch's blocks: no ratios, no thresholds;
// what they mean is the grader's to judge.
#include <cstdint>
#include <string_view>

namespace parlab_sim {

struct LaunchCounts {
  // Memory accesses (every block counted in a scored run).
  std::uint64_t threads = 0;               // threads of the launch's blocks
  std::uint64_t global_loads = 0;          // one per lane and load instruction
  std::uint64_t global_stores = 0;         // the same for stores
  std::uint64_t global_requests = 0;       // warp-wide requests, loads and stores
  std::uint64_t global_sectors = 0;        // 32-byte sectors those requests touched
  std::uint64_t global_ideal_sectors = 0;  // the fewest sectors their bytes need
  std::uint64_t shared_accesses = 0;       // one per lane and shared load or store
  std::uint64_t shared_requests = 0;       // warp-wide requests to shared memory
  std::uint64_t shared_conflict_ways = 0;  // bank-conflict ways summed over them
  // Loads and stores of the program's instrumented code (its CUDA files) run outside any
  // kernel, since the previous line: work done on the CPU, which no kernel figure shows.
  std::uint64_t host_accesses = 0;
  // Branch divergence of the sampled warps (a build without the coverage hook has none).
  std::uint64_t warps = 0;
  std::uint64_t divergent_warps = 0;        // with at least one divergent code block
  std::uint64_t warp_blocks = 0;            // (warp, code block) pairs run
  std::uint64_t divergent_warp_blocks = 0;  // run by only some lanes, or unevenly
  std::uint64_t warp_block_runs = 0;
  std::uint64_t divergent_runs = 0;
  std::uint64_t code_bytes = 0;             // code block length x warp runs: the work
  std::uint64_t divergent_code_bytes = 0;   // of it, run by only some lanes
};

// A line holds every `accesses` field, and either every `divergence` field or none; a
// missing `host` field counts 0 (a line can only add work, never hide any).
enum class CountGroup { accesses, divergence, host };

struct CountField {
  std::string_view name;  // the JSON key
  std::uint64_t LaunchCounts::*member;
  CountGroup group;
};

inline constexpr CountField kLaunchCountFields[] = {
    {"threads", &LaunchCounts::threads, CountGroup::accesses},
    {"global_loads", &LaunchCounts::global_loads, CountGroup::accesses},
    {"global_stores", &LaunchCounts::global_stores, CountGroup::accesses},
    {"global_requests", &LaunchCounts::global_requests, CountGroup::accesses},
    {"global_sectors", &LaunchCounts::global_sectors, CountGroup::accesses},
    {"global_ideal_sectors", &LaunchCounts::global_ideal_sectors, CountGroup::accesses},
    {"shared_accesses", &LaunchCounts::shared_accesses, CountGroup::accesses},
    {"shared_requests", &LaunchCounts::shared_requests, CountGroup::accesses},
    {"shared_conflict_ways", &LaunchCounts::shared_conflict_ways, CountGroup::accesses},
    {"host_accesses", &LaunchCounts::host_accesses, CountGroup::host},
    {"warps", &LaunchCounts::warps, CountGroup::divergence},
    {"divergent_warps", &LaunchCounts::divergent_warps, CountGroup::divergence},
    {"warp_blocks", &LaunchCounts::warp_blocks, CountGroup::divergence},
    {"divergent_warp_blocks", &LaunchCounts::divergent_warp_blocks, CountGroup::divergence},
    {"warp_block_runs", &LaunchCounts::warp_block_runs, CountGroup::divergence},
    {"divergent_runs", &LaunchCounts::divergent_runs, CountGroup::divergence},
    {"code_bytes", &LaunchCounts::code_bytes, CountGroup::divergence},
    {"divergent_code_bytes", &LaunchCounts::divergent_code_bytes, CountGroup::divergence},
};

// The key of the kernel's name, beside the counts.
inline constexpr std::string_view kLaunchKernelKey = "kernel";

// The kernel name of the line a run writes at exit: the launches past the runtime's
// line limit, summed (every launch is counted, however many), and the host accesses made
// after the last line. Its `threads` are those of the summed launches (0: none).
inline constexpr std::string_view kLaunchTailName = "(the rest of the run)";

}  // namespace parlab_sim
