#pragma once
// One memory instruction's counts over a whole run, as the runtime writes them to its
// counters channel at exit (beside the launch lines of parlab_sim/launch_counts.hpp) and
// as the grader reads them back (grading/memory_hints). Facts only: where the
// instruction is (its offset in the program, for the grader to name the line), which
// memory and which way, and its requests, sectors and bank-conflict ways summed over
// every launch of its kernel. Which instruction deserves a hint, and the hint's words,
// are the grader's.
#include <cstdint>
#include <string_view>

namespace parlab_sim {

struct InstructionCounts {
  // The instruction's address as addr2line takes it: the access hook's return address
  // minus one, from the start of the executable's image (the code places table's key).
  std::uint64_t code_offset = 0;
  bool shared = false;  // shared memory; else global
  bool store = false;   // a store; else a load
  std::uint64_t requests = 0;       // warp-wide requests
  std::uint64_t sectors = 0;        // global: 32-byte sectors they touched
  std::uint64_t ideal_sectors = 0;  // global: the fewest sectors their bytes need
  std::uint64_t conflict_ways = 0;  // shared: bank-conflict ways summed over the requests
};

// The record's keys: {"instruction": 4660, "kernel": "scale", "memory": "global",
// "access": "load", "requests": 16, "sectors": 512, "ideal_sectors": 64,
// "conflict_ways": 0}. A line with the "instruction" key is one of these, never a
// launch's counts.
inline constexpr std::string_view kInstructionOffsetKey = "instruction";
inline constexpr std::string_view kInstructionKernelKey = "kernel";
inline constexpr std::string_view kInstructionMemoryKey = "memory";
inline constexpr std::string_view kInstructionAccessKey = "access";
inline constexpr std::string_view kInstructionRequestsKey = "requests";
inline constexpr std::string_view kInstructionSectorsKey = "sectors";
inline constexpr std::string_view kInstructionIdealSectorsKey = "ideal_sectors";
inline constexpr std::string_view kInstructionConflictWaysKey = "conflict_ways";
inline constexpr std::string_view kSharedMemory = "shared";
inline constexpr std::string_view kGlobalMemory = "global";
inline constexpr std::string_view kStoreAccess = "store";
inline constexpr std::string_view kLoadAccess = "load";

// Records a run writes at most: its instructions with the most requests. A hint is
// about an instruction that carries a large share of its kernel's requests, so the
// instructions left out are the ones no hint would name.
inline constexpr std::size_t kMaxInstructionRecords = 64;

}  // namespace parlab_sim
