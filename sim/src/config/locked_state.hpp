#pragma once
// Everything a verdict depends on that the runtime decides at start-up: its settings
// and the checks' switches, in one page of their own. Once the settings are in, a
// graded run makes the page read-only and seals it (config/runtime_lock), so code of
// the submission that finds it (through the executable's symbol table, say) can read
// it but neither write it nor change its protection (docs/sandbox.md, "The runtime
// locks itself before the submission runs").
#include <cstddef>

#include "config/runtime_settings.hpp"

namespace parlab_sim::detail {

constexpr std::size_t kLockedPageBytes = 4096;

// One whole page (aligned and sized to it), so sealing it seals nothing else and
// nothing else shares its protection.
struct alignas(kLockedPageBytes) LockedState {
  RuntimeSettings settings;
  bool race_check_enabled = false;    // PARLAB_SIM_RACE_CHECK=1
  bool counters_enabled = false;      // PARLAB_SIM_COUNTERS=1 or 2
  bool access_hooks_enabled = false;  // either of the two: the hooks record accesses
  // The only program the runtime may start once locked (addr2line, found at start-up):
  // the system call filter lets execve through only with this very address as its
  // path, whose bytes no one can change after the lock.
  char helper_path[256] = {};
};
static_assert(sizeof(LockedState) == kLockedPageBytes, "the locked state fills one page");

// Constant-initialized (zero), so no initializer of any file can run after it is set.
extern LockedState g_locked;

}  // namespace parlab_sim::detail
