#pragma once
// Everything a verdict or a report depends on that the runtime decides at start-up: its
// settings, the checks' switches, the report's key and the process that took it, and
// where the program's machine code lies, in one page of their own. Once they are in, a
// graded run makes the page read-only and seals it (config/runtime_lock), so code of
// the submission that finds it (through the executable's symbol table, say) can read
// it but neither write it nor change its protection (docs/sandbox.md, "The runtime
// locks itself before the submission runs").
#include <sys/types.h>

#include <cstddef>
#include <cstdint>

#include "config/runtime_settings.hpp"

namespace parlab_sim::detail {

constexpr std::size_t kLockedPageBytes = 4096;
constexpr std::size_t kReportKeyBytes = 32;

// The report channel's identity (report/sealed_channel), set once when the key is taken.
// Locked with the settings, so code of the submission that finds it can read the key
// (the design does not rest on its secrecy: docs/sandbox.md, "The report channel") but
// cannot mark another process as the one the grader started, nor turn the seal off.
struct ReportIdentity {
  unsigned char key[kReportKeyBytes] = {};
  bool key_taken = false;      // a key was offered (well-formed or not): never again
  bool keyed = false;          // the key was well-formed: lines are sealed
  bool channel_given = false;  // the grader's socket is at the report descriptor
  pid_t loader_pid = 0;        // the process that took the key: the one the grader started
};

// Where the executable's machine code lies (fault/code_offset): a fault's place is
// reported as an offset into it. Looked up once, at start-up for a graded run.
struct ProgramCodeRange {
  bool looked = false;
  std::uintptr_t load_bias = 0;
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;  // 0: not found (no offsets are reported)
};

// Where the executable's writable data lies (its .data and .bss): a program's __device__
// and __managed__ variables are there, since the qualifiers vanish in the simulator
// (parlab_sim/qualifiers.hpp). A kernel's thread reaches no other static data on a GPU
// (nvcc refuses host variables in device code), so the race check and the counters take
// every access a kernel's thread makes there as one to global memory (exec/race_check).
// Looked up with the code range; empty: not found.
struct ProgramDataRange {
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;
};

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
  ReportIdentity report;
  ProgramCodeRange program_code;
  ProgramDataRange program_data;
};
static_assert(sizeof(LockedState) == kLockedPageBytes, "the locked state fills one page");

// Constant-initialized (zero), so no initializer of any file can run after it is set.
extern LockedState g_locked;

}  // namespace parlab_sim::detail
