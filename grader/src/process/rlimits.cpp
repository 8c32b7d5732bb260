#include "process/rlimits.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace parlab::grader::process {
namespace {

rlim_t megabytes(std::uint64_t mb) {
  constexpr std::uint64_t kMaxMb = std::numeric_limits<rlim_t>::max() >> 20;
  return mb >= kMaxMb ? RLIM_INFINITY : static_cast<rlim_t>(mb) << 20;
}

rlim_t whole_cpu_seconds(double seconds) {
  if (!(seconds > 0)) return RLIM_INFINITY;  // also catches NaN
  double rounded = std::ceil(seconds);
  if (rounded >= 1e12) return RLIM_INFINITY;
  return static_cast<rlim_t>(rounded);
}

// The child inherits the grader's limits; it cannot go above the hard one.
RlimitSetting clamped(int resource, rlim_t soft, rlim_t hard) {
  rlimit current{};
  if (::getrlimit(resource, &current) == 0 && current.rlim_max != RLIM_INFINITY) {
    hard = hard == RLIM_INFINITY ? current.rlim_max : std::min(hard, current.rlim_max);
  }
  if (soft == RLIM_INFINITY || soft > hard) soft = hard;
  return RlimitSetting{resource, rlimit{soft, hard}};
}

}  // namespace

RlimitPlan plan_rlimits(const ResourceLimits& limits, bool limit_processes,
                        std::size_t extra_processes) {
  RlimitPlan plan;
  auto add = [&plan](RlimitSetting setting) { plan.general[plan.general_count++] = setting; };

  rlim_t cpu = whole_cpu_seconds(limits.cpu_seconds);
  add(clamped(RLIMIT_CPU, cpu, cpu == RLIM_INFINITY ? RLIM_INFINITY : cpu + 1));

  rlim_t address_space =
      limits.address_space_mb == 0 ? RLIM_INFINITY : megabytes(limits.address_space_mb);
  add(clamped(RLIMIT_AS, address_space, address_space));

  rlim_t file_size = megabytes(limits.file_size_mb);
  add(clamped(RLIMIT_FSIZE, file_size, file_size));

  add(clamped(RLIMIT_CORE, 0, 0));

  plan.limit_processes = limit_processes;
  if (limit_processes) {
    rlim_t processes = static_cast<rlim_t>(limits.max_processes + extra_processes);
    plan.processes = clamped(RLIMIT_NPROC, processes, processes);
  }
  return plan;
}

}  // namespace parlab::grader::process
