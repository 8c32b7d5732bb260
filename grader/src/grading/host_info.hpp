#pragma once
// Facts about the machine a grading ran on, stated in every report: thresholds for
// CPU-parallel tests scale with the cores this process may actually use.
#include "result/result.hpp"

namespace parlab::grader {

// Cores in this process's affinity mask (what taskset/Slurm granted), not the
// machine's total.
int available_cores();
HostInfo probe_host(const std::string& sandbox_name);

}  // namespace parlab::grader
