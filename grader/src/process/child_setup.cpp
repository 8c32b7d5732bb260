#include "process/child_setup.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

#include "process/hidden_processes.hpp"
#include "process/syscall_filter.hpp"
#include "process/uid_keyrings.hpp"

namespace parlab::grader::process {
namespace {

ChildSetupFailure failed(ChildSetupStep step) { return ChildSetupFailure{errno, step}; }

// Handlers do not survive exec, but ignored signals and the blocked mask do: a
// grader that ignores SIGPIPE or blocks SIGXCPU in a thread must not pass that on.
bool reset_signals() {
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  for (int s = 1; s < NSIG; ++s) {
    if (s == SIGKILL || s == SIGSTOP) continue;
    ::sigaction(s, &default_action, nullptr);  // fails harmlessly for glibc-reserved ones
  }
  sigset_t none;
  ::sigemptyset(&none);
  return ::sigprocmask(SIG_SETMASK, &none, nullptr) == 0;
}

// Every descriptor above stderr becomes close-on-exec: the grader's open files
// (datasets, results, other children's pipes) must not reach untrusted code.
// Close-on-exec rather than close, so Boost.Process's exec-error pipe still works.
void mark_descriptors_close_on_exec() {
#if defined(SYS_close_range) && defined(CLOSE_RANGE_CLOEXEC)
  if (::syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) == 0) return;
#endif
  // Older kernels: walk the descriptor table.
  rlimit files{};
  long last = (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY)
                  ? static_cast<long>(files.rlim_cur)
                  : 65536;
  for (long fd = 3; fd < last; ++fd) {
    int flags = ::fcntl(static_cast<int>(fd), F_GETFD);
    if (flags >= 0 && !(flags & FD_CLOEXEC))
      ::fcntl(static_cast<int>(fd), F_SETFD, flags | FD_CLOEXEC);
  }
}

bool set_limit(const RlimitSetting& setting) {
  return ::setrlimit(static_cast<__rlimit_resource_t>(setting.resource), &setting.value) == 0;
}

// Raw system calls: glibc's wrappers broadcast credential changes to all threads,
// machinery that is not meant to run in a forked child.
ChildSetupFailure drop_privileges(uid_t uid, gid_t gid, gid_t supplementary_group) {
  const gid_t groups[1] = {supplementary_group};
  const long set = supplementary_group != 0 ? ::syscall(SYS_setgroups, 1, groups)
                                            : ::syscall(SYS_setgroups, 0, nullptr);
  if (set != 0) return failed(ChildSetupStep::drop_groups);
  if (::syscall(SYS_setresgid, gid, gid, gid) != 0) return failed(ChildSetupStep::drop_gid);
  if (::syscall(SYS_setresuid, uid, uid, uid) != 0) return failed(ChildSetupStep::drop_uid);
  // Paranoia: the way back to root must be closed.
  if (::getuid() != uid || ::geteuid() != uid || ::getgid() != gid || ::getegid() != gid ||
      ::syscall(SYS_setresuid, 0, 0, 0) == 0) {
    errno = EPERM;
    return failed(ChildSetupStep::verify_drop);
  }
  return {};
}

}  // namespace

const char* describe(ChildSetupStep step) {
  switch (step) {
    case ChildSetupStep::none:
      return "no failure";
    case ChildSetupStep::join_cgroup:
      return "joining the run's cgroup";
    case ChildSetupStep::reset_signals:
      return "resetting the signal mask";
    case ChildSetupStep::new_session:
      return "setsid";
    case ChildSetupStep::keep_status_fd:
      return "keeping the sandbox status pipe open";
    case ChildSetupStep::pass_settings:
      return "placing the simulator's settings descriptor";
    case ChildSetupStep::pass_report:
      return "placing the simulator's report channel";
    case ChildSetupStep::reach_bridge:
      return "bridging a private parent folder for the sandbox's user";
    case ChildSetupStep::hide_processes:
      return "mounting a /proc that hides other users' processes";
    case ChildSetupStep::change_directory:
      return "chdir to the work dir";
    case ChildSetupStep::resource_limits:
      return "setrlimit";
    case ChildSetupStep::drop_groups:
      return "setgroups for the unprivileged user";
    case ChildSetupStep::drop_gid:
      return "setresgid to the unprivileged group";
    case ChildSetupStep::drop_uid:
      return "setresuid to the unprivileged user";
    case ChildSetupStep::verify_drop:
      return "verifying the privilege drop";
    case ChildSetupStep::own_keyring:
      return "joining a session keyring of the run's own";
    case ChildSetupStep::process_limit:
      return "setrlimit(RLIMIT_NPROC)";
    case ChildSetupStep::parent_death_signal:
      return "prctl(PR_SET_PDEATHSIG)";
    case ChildSetupStep::grader_gone:
      return "checking that the grader is still alive";
    case ChildSetupStep::no_new_privileges:
      return "prctl(PR_SET_NO_NEW_PRIVS)";
    case ChildSetupStep::syscall_filter:
      return "installing the seccomp filter";
  }
  return "unknown step";
}

ChildSetupFailure apply_child_setup(const ChildSetupPlan& plan) noexcept {
  // "0" is the writing process itself, in v1 and v2.
  for (int i = 0; i < plan.cgroup_count; ++i) {
    int fd = ::open(plan.cgroup_procs[i], O_WRONLY | O_CLOEXEC);
    if (fd < 0) return failed(ChildSetupStep::join_cgroup);
    bool joined = ::write(fd, "0", 1) == 1;
    ::close(fd);
    if (!joined) return failed(ChildSetupStep::join_cgroup);
  }
  if (!reset_signals()) return failed(ChildSetupStep::reset_signals);
  // A new session is also a new process group (pgid = pid), so the grader can kill
  // the whole tree with kill(-pid); and no controlling terminal, so the program
  // cannot open /dev/tty to type into the grader's shell.
  if (::setsid() < 0) return failed(ChildSetupStep::new_session);
  mark_descriptors_close_on_exec();
  if (plan.keep_open_fd >= 0 && ::fcntl(plan.keep_open_fd, F_SETFD, 0) != 0)
    return failed(ChildSetupStep::keep_status_fd);
  // The report channel out of the way of the settings' number first (a busy grader's own
  // descriptors can reach it), so placing the settings cannot close it.
  int report_fd = plan.report_fd;
  if (report_fd >= 0 && report_fd == plan.settings_target &&
      (report_fd = ::fcntl(plan.report_fd, F_DUPFD_CLOEXEC, plan.report_target + 1)) < 0)
    return failed(ChildSetupStep::pass_report);
  // dup2 leaves the copy open across exec; the status pipe must not be in its way.
  if (plan.settings_fd >= 0 && (plan.settings_target == plan.keep_open_fd ||
                                ::dup2(plan.settings_fd, plan.settings_target) < 0 ||
                                ::fcntl(plan.settings_target, F_SETFD, 0) != 0))
    return failed(ChildSetupStep::pass_settings);
  if (report_fd >= 0 && (plan.report_target == plan.keep_open_fd ||
                         plan.report_target == plan.settings_target ||
                         ::dup2(report_fd, plan.report_target) < 0 ||
                         ::fcntl(plan.report_target, F_SETFD, 0) != 0))
    return failed(ChildSetupStep::pass_report);
  // Before the drop and the chdir: a view in which private parents are passable.
  if (plan.reach != nullptr && !apply_reach_plan(*plan.reach))
    return failed(ChildSetupStep::reach_bridge);
  if (plan.hide_other_processes && !hide_other_processes())
    return failed(ChildSetupStep::hide_processes);
  // Before the drop: root may enter a directory the unprivileged user cannot reach.
  if (plan.work_dir != nullptr && ::chdir(plan.work_dir) != 0)
    return failed(ChildSetupStep::change_directory);

  for (std::size_t i = 0; i < plan.rlimits.general_count; ++i)
    if (!set_limit(plan.rlimits.general[i])) return failed(ChildSetupStep::resource_limits);

  // Before the drop: as root it needs no no_new_privs (runs under bubblewrap have
  // none). A root without CAP_SYS_ADMIN (a container) tries again once no_new_privs
  // is set; where it cannot be installed the leftover sweep clears the keys instead.
  const bool keys_closed = plan.key_store_filter != nullptr && install_syscall_filter(*plan.key_store_filter);

  if (plan.drop_privileges) {
    ChildSetupFailure failure = drop_privileges(plan.uid, plan.gid, plan.supplementary_group);
    if (failure.error != 0) return failure;
    // The grader's session keyring would be shared with every other grading's runs
    // (where the filter above is missing).
    if (!join_own_session_keyring()) return failed(ChildSetupStep::own_keyring);
  }
  // After the drop: setting it earlier would let setresuid() mark the process as
  // over the limit and make execve() fail, a grader error instead of the student's.
  if (plan.rlimits.limit_processes && !set_limit(plan.rlimits.processes))
    return failed(ChildSetupStep::process_limit);

  // Die with the grader. The "parent" is the grader thread in run(), which waits for
  // the child, so it outlives it. After the drop, because changing credentials clears it.
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return failed(ChildSetupStep::parent_death_signal);
  if (::getppid() != plan.grader_pid) {
    errno = ESRCH;
    return failed(ChildSetupStep::grader_gone);
  }
  if (plan.no_new_privileges && ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return failed(ChildSetupStep::no_new_privileges);
  if (plan.syscall_filter != nullptr && !install_syscall_filter(*plan.syscall_filter))
    return failed(ChildSetupStep::syscall_filter);
  if (!keys_closed && plan.key_store_filter != nullptr && plan.no_new_privileges)
    install_syscall_filter(*plan.key_store_filter);
  return {};
}

}  // namespace parlab::grader::process
