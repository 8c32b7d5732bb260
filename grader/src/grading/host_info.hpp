#pragma once
// Facts about the machine a grading ran on, stated in every report: thresholds for
// CPU-parallel tests scale with the cores this process may actually use.
#include "result/result.hpp"

namespace parlab::grader {

// Cores this process may really use: its affinity mask (what taskset/Slurm granted),
// not the machine's total, and no more than a cgroup CPU quota grants (Docker --cpus,
// Kubernetes limits), rounded down to whole cores.
int available_cores();
// CPUs of the whole machine, online: what /proc/stat's counters add up over (the
// machine's other load is judged against them too, measure/other_load.hpp).
int machine_cpus();
HostInfo probe_host(const std::string& sandbox_name);

}  // namespace parlab::grader
