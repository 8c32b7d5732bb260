#pragma once
// The loads and stores the program's instrumented code (its CUDA files) makes outside
// kernels: on the host thread, not on a worker running a block. A kernel's figures say
// nothing of work done on the CPU, so a program that copies the inputs back and computes
// the answer in host code would look like a kernel that loads almost nothing; this count
// goes into the counters' lines (host_accesses, parlab_sim/launch_counts.hpp) for the
// grader to judge. Counted only in a run that counts (the access hooks are on).
#include <cstdint>

namespace parlab_sim::detail {

// One access by host code (exec/race_check's hook, off the workers).
void count_host_access() noexcept;

// The accesses counted since the last call, and the count set back to 0.
std::uint64_t take_host_accesses() noexcept;

}  // namespace parlab_sim::detail
