#pragma once
// The resource limits a child gets, computed in the grader before fork() so the
// child only has to call setrlimit() with ready numbers (no allocation after fork).
#include <sys/resource.h>

#include <array>
#include <cstddef>

#include "process/process_runner.hpp"

namespace parlab::grader::process {

struct RlimitSetting {
  int resource = 0;  // RLIMIT_CPU, ...
  rlimit value{};
};

struct RlimitPlan {
  // RLIMIT_CPU, RLIMIT_AS, RLIMIT_FSIZE, RLIMIT_CORE: set while still privileged, so
  // a limit above the unprivileged user's hard limit can still be granted.
  std::array<RlimitSetting, 4> general{};
  std::size_t general_count = 0;
  // RLIMIT_NPROC: set after the privilege drop (see apply_child_setup), and only when
  // there is a drop: the kernel counts every process of the real user id, which for
  // root is not enforced and for a normal user includes their whole desktop session.
  bool limit_processes = false;
  RlimitSetting processes{};
};

// cpu_seconds is rounded up (soft = ceil, hard = soft + 1 so SIGXCPU comes first,
// then SIGKILL a second later); cpu_seconds <= 0 means no CPU limit.
// address_space_mb == 0 means no address-space limit. Core dumps are always off.
// `extra_processes` is added to max_processes for helpers that count against the
// same user (bubblewrap's two processes). Every value is clamped to the grader's own
// hard limit, which the child inherits and could not raise anyway.
RlimitPlan plan_rlimits(const ResourceLimits& limits, bool limit_processes,
                        std::size_t extra_processes);

}  // namespace parlab::grader::process
