#include "process/exit_classifier.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <cmath>

#include "process/human_units.hpp"
#include "process/signal_names.hpp"

namespace parlab::grader::process {
namespace {

constexpr int kShellSignalBase = 128;

std::string address_space_note(const ResourceLimits& limits) {
  if (limits.address_space_mb == 0) return "";
  return " (address-space limit " + format_bytes(limits.address_space_mb << 20) + ")";
}

Verdict out_of_memory(const std::string& how, const ResourceLimits& limits) {
  return {RunOutcome::memory_limit, "memory limit: " + how + address_space_note(limits)};
}

Verdict cpu_limit(const ResourceLimits& limits, const std::string& signal) {
  return {RunOutcome::cpu_limit,
          "cpu limit: used more than " + format_seconds(std::ceil(limits.cpu_seconds)) +
              " of CPU time (summed over all its threads) and was stopped (" + signal + ")"};
}

// Faults the program caused itself "crash"; other signals came from outside.
bool is_fault(int signal) {
  switch (signal) {
    case SIGSEGV:
    case SIGBUS:
    case SIGABRT:
    case SIGFPE:
    case SIGILL:
    case SIGTRAP:
    case SIGSYS:
      return true;
    default:
      return false;
  }
}

Verdict by_signal(int signal, const TerminationContext& context, const ResourceLimits& limits,
                  const std::string& stderr_text) {
  if (signal == SIGXCPU) return cpu_limit(limits, "SIGXCPU");
  if (signal == SIGXFSZ) {
    return {RunOutcome::output_limit,
            "output limit: a file it wrote grew past the file size limit of " +
                format_bytes(limits.file_size_mb << 20) + " (SIGXFSZ)"};
  }
  if (signal == SIGABRT && stderr_text.find("std::bad_alloc") != std::string::npos)
    return out_of_memory("a memory allocation failed (std::bad_alloc was not caught)", limits);
  if (signal == SIGKILL) {
    // Not ours (those were handled before). The hard CPU limit is one second past
    // the soft one; a program that survives SIGXCPU meets SIGKILL there.
    if (limits.cpu_seconds > 0 && context.cpu_seconds_used >= std::ceil(limits.cpu_seconds))
      return cpu_limit(limits, "SIGKILL");
    if (context.oom_killer_ran) {
      return out_of_memory(
          "killed by SIGKILL while the kernel's out-of-memory killer was active; the program "
          "most likely used too much memory",
          limits);
    }
    return {RunOutcome::crashed,
            "killed by SIGKILL (not sent by the grader: something outside the program, e.g. "
            "the kernel's out-of-memory killer or an administrator, stopped it)"};
  }
  std::string text = (is_fault(signal) ? "crashed with " : "killed by ") + signal_name(signal);
  std::string explanation = signal_explanation(signal);
  if (!explanation.empty()) text += " (" + explanation + ")";
  return {RunOutcome::crashed, text};
}

}  // namespace

Termination termination_from_wait_status(int wait_status, bool through_bubblewrap) {
  Termination t;
  if (WIFSIGNALED(wait_status)) {
    t.signaled = true;
    t.signal = WTERMSIG(wait_status);
  } else if (WIFEXITED(wait_status)) {
    t.exit_code = WEXITSTATUS(wait_status);
    if (through_bubblewrap && t.exit_code > kShellSignalBase &&
        t.exit_code - kShellSignalBase < NSIG) {
      t.signaled = true;
      t.signal = t.exit_code - kShellSignalBase;
      t.exit_code = -1;
    }
  }
  return t;
}

Verdict classify_termination(const Termination& termination, const TerminationContext& context,
                             const ResourceLimits& limits, const std::string& stderr_text) {
  // The run's memory limit covers the whole tree (memfd, tmpfs and children
  // included): a kill there explains any failure that followed, even when only a
  // child died and the program itself exited with an error. First, before our own
  // kills: a worker killed for memory leaves its parent blocked on a pipe nobody
  // writes, which the monitor then stops as a deadlock.
  if (context.cgroup_oom_kills > 0) {
    return {RunOutcome::memory_limit,
            "memory limit: the program and its child processes together used more than " +
                format_bytes(context.cgroup_memory_limit_bytes) +
                " (memory files and tmpfs included); " + std::to_string(context.cgroup_oom_kills) +
                (context.cgroup_oom_kills == 1 ? " process was" : " processes were") + " killed"};
  }
  // Our own kill explains the end, whatever status the race with it produced.
  if (context.killed_for == KillCause::timeout && context.stopped_as_deadlock) {
    return {RunOutcome::timeout, "deadlock: stopped after " +
                                     format_seconds(context.killed_after_seconds) + " (limit " +
                                     format_seconds(limits.wall_seconds) +
                                     "), because every process was blocked and no CPU time "
                                     "was used, which cannot end by itself; " +
                                     context.stuck_diagnosis};
  }
  if (context.killed_for == KillCause::timeout) {
    std::string reason = "time limit: still running after " +
                         format_seconds(context.killed_after_seconds) + " (limit " +
                         format_seconds(limits.wall_seconds) + "); killed";
    if (!context.stuck_diagnosis.empty()) reason += "; " + context.stuck_diagnosis;
    return {RunOutcome::timeout, reason};
  }
  if (context.killed_for == KillCause::report_limit) {
    return {RunOutcome::output_limit, "output limit: the program sent more than " +
                                          format_bytes(MonitorLimits{}.report_bytes) +
                                          " through the simulator's report channel and was stopped"};
  }
  if (context.killed_for == KillCause::output_limit) {
    return {RunOutcome::output_limit, "output limit: the program wrote more than " +
                                          format_bytes(limits.output_kill_bytes) +
                                          " to stdout/stderr and was stopped"};
  }
  if (context.disk_quota_full && !(termination.exit_code == 0 && !termination.signaled)) {
    return {RunOutcome::output_limit,
            "disk quota exceeded: the files written in the run's folder filled its " +
                format_bytes(context.disk_quota_bytes) + " quota"};
  }
  if (termination.signaled) return by_signal(termination.signal, context, limits, stderr_text);
  if (termination.exit_code == 0) return {RunOutcome::ok, ""};
  if (termination.exit_code == kHarnessOutOfMemoryExitCode)
    return out_of_memory("the program ran out of memory", limits);
  // A simulator's stop status (87 to 93) is a plain exit here: grading/simulator_stop
  // names the stop only when the run's sealed stop record confirms it.
  return {RunOutcome::nonzero_exit, "exited with status " + std::to_string(termination.exit_code)};
}

}  // namespace parlab::grader::process
