#pragma once
// One code block's divergence over a whole run, as the runtime writes it to its counters
// channel at exit (beside the launch lines of parlab_sim/launch_counts.hpp) and as the
// grader reads it back (grading/divergence_hint). Facts only: where the block is (the
// offset of its coverage hook's call in the program, for the grader to name the line),
// its length, and how its sampled warps ran it, summed over every launch of its kernel.
// Only the student's blocks that some warp ran divergently are written. Whether a
// kernel's divergence deserves a hint, and which lines it names, are the grader's.
#include <cstdint>
#include <string_view>

namespace parlab_sim {

struct CodeBlockCounts {
  // The coverage hook's call at the block's start, as addr2line takes it (the code places
  // table's key): the call's return address minus one, from the start of the image.
  std::uint64_t code_offset = 0;
  std::uint64_t bytes = 0;            // the block's length in machine code
  std::uint64_t warp_runs = 0;        // sum over sampled warps of the most runs by one lane
  std::uint64_t divergent_runs = 0;   // sum over them of most - fewest (not side work)
  std::uint64_t divergent_warps = 0;  // (launch, sampled warp) pairs that ran it divergently
};

// The record's keys: {"code_block": 4660, "kernel": "sum", "bytes": 24, "warp_runs": 64,
// "divergent_runs": 48, "divergent_warps": 16}. A line with the "code_block" key is one of
// these, never a launch's counts.
inline constexpr std::string_view kCodeBlockOffsetKey = "code_block";
inline constexpr std::string_view kCodeBlockKernelKey = "kernel";
inline constexpr std::string_view kCodeBlockBytesKey = "bytes";
inline constexpr std::string_view kCodeBlockWarpRunsKey = "warp_runs";
inline constexpr std::string_view kCodeBlockDivergentRunsKey = "divergent_runs";
inline constexpr std::string_view kCodeBlockDivergentWarpsKey = "divergent_warps";

// Records a run writes at most: its blocks with the most divergent work (bytes x
// divergent runs). A hint names at most a few of a kernel's worst.
inline constexpr std::size_t kMaxCodeBlockRecords = 64;

}  // namespace parlab_sim
