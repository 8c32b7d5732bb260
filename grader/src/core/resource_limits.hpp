#pragma once
// The limits one child process runs under. A lab.toml sets them (spec/), the process
// runner enforces them (process/): a floor type so neither needs the other.
#include <cstdint>

namespace parlab::grader {

struct ResourceLimits {
  double wall_seconds = 10;            // whole process group killed after this
  double cpu_seconds = 60;             // RLIMIT_CPU (summed over threads)
  std::uint64_t address_space_mb = 2048;  // RLIMIT_AS; 0 = unlimited
  std::uint64_t file_size_mb = 256;    // RLIMIT_FSIZE
  std::uint64_t max_processes = 64;    // RLIMIT_NPROC (not enforced for root; see sandbox)
  // Memory of the whole run (its cgroup, where there is one); 0: address_space_mb.
  std::uint64_t memory_mb = 0;
  std::uint64_t output_bytes = 64 * 1024;      // stdout/stderr kept for the report, each
  std::uint64_t output_kill_bytes = 8 << 20;   // past this much output the group is killed
};

}  // namespace parlab::grader
