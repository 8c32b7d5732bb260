#pragma once
// The CPU time a cgroup quota grants this process, in cores: Docker's --cpus, Slurm's
// and Kubernetes' CPU limits set it, and a machine's affinity mask does not show it.
// cgroup v2: cpu.max ("QUOTA PERIOD" or "max PERIOD"); v1: cpu.cfs_quota_us and
// cpu.cfs_period_us. The tightest limit of the process's cgroup and its ancestors
// counts.
#include <filesystem>

namespace parlab::grader {

// Cores granted by the quota (e.g. 1.5), or 0 when no quota applies. The roots are
// parameters so tests can build a fake hierarchy.
double cgroup_cpu_limit(const std::filesystem::path& cgroup_root = "/sys/fs/cgroup",
                        const std::filesystem::path& self_cgroup = "/proc/self/cgroup");

}  // namespace parlab::grader
