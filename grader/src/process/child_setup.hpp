#pragma once
// What the child does between fork() and exec(): its own session and process
// group, no inherited descriptors, default signal handling, resource limits, and
// (when the grader is root) the switch to an unprivileged user.
//
// The grader may have other threads, so after fork() only async-signal-safe calls
// are allowed: no malloc, no locks, no iostreams. Everything here is computed
// before fork() and the child only reads it.
#include <linux/filter.h>
#include <sys/types.h>

#include "process/reach_bridge.hpp"
#include "process/rlimits.hpp"

namespace parlab::grader::process {

struct ChildSetupPlan {
  const char* work_dir = nullptr;  // chdir() target; owned by the caller
  RlimitPlan rlimits;
  bool drop_privileges = false;
  uid_t uid = 0;
  gid_t gid = 0;
  // The one supplementary group of a submission's run (uid_pool.hpp, submissions_gid:
  // it closes the instructor's files); 0: none (the reference's runs).
  gid_t supplementary_group = 0;
  // A descriptor the child must keep across exec (bubblewrap's status pipe); -1: none.
  int keep_open_fd = -1;
  // The simulator's settings (RunRequest::simulator_settings): a descriptor placed at
  // `settings_target` in the child, kept across exec; -1: none.
  int settings_fd = -1;
  int settings_target = -1;
  // The sending end of the simulator's report channel, placed at `report_target`, kept
  // across exec; -1: none.
  int report_fd = -1;
  int report_target = -1;
  // Set PR_SET_NO_NEW_PRIVS: setuid programs cannot raise the child's privileges.
  // Off under bubblewrap, which sets it itself and may need setuid on some hosts.
  bool no_new_privileges = true;
  pid_t grader_pid = 0;  // to notice a grader that died before PR_SET_PDEATHSIG took hold
  // cgroup.procs files of the run's cgroup (run_cgroup.hpp), joined first, so the
  // whole tree (bwrap included) is in it; owned by the caller.
  static constexpr int kMaxCgroups = 3;
  const char* cgroup_procs[kMaxCgroups] = {};
  int cgroup_count = 0;
  // Private folders on the way to the work dir, bridged in a mount namespace of the
  // child's own (reach_bridge.hpp); null or empty: none. Owned by the caller.
  const ReachPlan* reach = nullptr;
  // A private /proc showing only the child's own uid (hidden_processes.hpp).
  bool hide_other_processes = false;
  // The key store's seccomp filter (syscall_filter.hpp) of a root grader's run,
  // installed while still root (or, without CAP_SYS_ADMIN, after no_new_privs: then
  // best effort); null: none. Owned by the caller.
  const sock_fprog* key_store_filter = nullptr;
  // The seccomp filter of a run without bubblewrap (syscall_filter.hpp), installed
  // last, after no_new_privs; null: none. Owned by the caller.
  const sock_fprog* syscall_filter = nullptr;
};

// The pre-exec steps that can fail, in order.
enum class ChildSetupStep {
  none,
  join_cgroup,
  reset_signals,
  new_session,
  keep_status_fd,
  pass_settings,
  pass_report,
  reach_bridge,
  hide_processes,
  change_directory,
  resource_limits,
  drop_groups,
  drop_gid,
  drop_uid,
  verify_drop,
  own_keyring,
  process_limit,
  parent_death_signal,
  grader_gone,
  no_new_privileges,
  syscall_filter,
};
inline constexpr int kChildSetupStepCount = static_cast<int>(ChildSetupStep::syscall_filter) + 1;

// "setresuid to the unprivileged user", for error messages.
const char* describe(ChildSetupStep step);

struct ChildSetupFailure {
  int error = 0;  // errno; 0 = success
  ChildSetupStep step = ChildSetupStep::none;
};

// Runs in the forked child. Async-signal-safe; returns the first failure.
ChildSetupFailure apply_child_setup(const ChildSetupPlan& plan) noexcept;

}  // namespace parlab::grader::process
