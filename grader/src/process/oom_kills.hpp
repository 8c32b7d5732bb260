#pragma once
// How many processes the kernel's out-of-memory killer has killed since boot
// (/proc/vmstat oom_kill; cgroup OOM kills count too). Read before and after a
// run: if it rose, a SIGKILL the grader did not send was most likely the OOM
// killer, i.e. the program used too much memory.
#include <cstdint>
#include <optional>

namespace parlab::grader::process {

// Empty when the kernel does not say (no /proc, or kernels before 4.13).
std::optional<std::uint64_t> oom_kill_count();

}  // namespace parlab::grader::process
