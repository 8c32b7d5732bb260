#pragma once
// From "how did the process end" to the student's outcome and a reason that
// teaches: "crashed with SIGSEGV (segmentation fault: ...)", "exited with status 3".
#include <cstdint>
#include <string>

#include "parlab_sim/exit_codes.hpp"
#include "process/child_monitor.hpp"
#include "process/process_runner.hpp"

namespace parlab::grader::process {

// The harness exits with this status when an allocation fails (it catches
// std::bad_alloc), so an out-of-memory run is told apart from other failures; the
// simulator's own out-of-memory stop uses the same one.
inline constexpr int kHarnessOutOfMemoryExitCode = parlab_sim::kExitOutOfMemory;
// The CUDA simulator's stop statuses (87 to 93, parlab_sim/exit_codes.hpp) are plain exits
// here: grading/simulator_stop names such a stop only from the run's sealed stop record.

struct Termination {
  bool signaled = false;
  int exit_code = -1;  // when it exited
  int signal = 0;      // when a signal ended it
};

// Decodes a waitpid() status. Under bubblewrap the grader's child is bwrap, which
// reports a sandboxed program killed by signal N as exit status 128 + N, like a
// shell; that is undone here, so a program that itself exits with 139 is read as
// SIGSEGV (both are failures, and the harness never uses such codes).
Termination termination_from_wait_status(int wait_status, bool through_bubblewrap);

struct TerminationContext {
  KillCause killed_for = KillCause::none;  // the grader killed it, and why
  double killed_after_seconds = 0;
  std::string stuck_diagnosis;        // what the tree was doing then (stuck_tree.hpp)
  bool stopped_as_deadlock = false;   // killed early: every process blocked, no CPU used
  bool oom_killer_ran = false;  // the kernel's OOM kill count rose during the run
  double cpu_seconds_used = 0;  // user + system time of the child and its waited-for children
  // The run's cgroup (run_cgroup.hpp) killed a process at its memory limit; 0: no
  // cgroup or no such kill. The limit, for the reason.
  std::uint64_t cgroup_oom_kills = 0;
  std::uint64_t cgroup_memory_limit_bytes = 0;
  // The run's private disk area (run_area.hpp) was full when it ended.
  bool disk_quota_full = false;
  std::uint64_t disk_quota_bytes = 0;
};

struct Verdict {
  RunOutcome outcome = RunOutcome::ok;
  std::string reason;  // empty for ok
};

Verdict classify_termination(const Termination& termination, const TerminationContext& context,
                             const ResourceLimits& limits, const std::string& stderr_text);

}  // namespace parlab::grader::process
