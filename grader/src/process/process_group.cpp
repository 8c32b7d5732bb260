#include "process/process_group.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include <cerrno>
#include <mutex>
#include <thread>

namespace parlab::grader::process {

void kill_process_group(pid_t leader) {
  if (leader <= 0) return;  // kill(0) or kill(-1) would hit far more than the child
  ::kill(-leader, SIGKILL);
  ::kill(leader, SIGKILL);
}

void become_child_subreaper() {
  static std::once_flag once;
  std::call_once(once, [] { ::prctl(PR_SET_CHILD_SUBREAPER, 1); });
}

void reap_process_group(pid_t leader, std::chrono::milliseconds patience) {
  if (leader <= 0) return;
  auto give_up = std::chrono::steady_clock::now() + patience;
  for (;;) {
    pid_t reaped = ::waitpid(-leader, nullptr, WNOHANG);
    if (reaped > 0) continue;
    if (reaped < 0 && errno == EINTR) continue;
    if (reaped < 0) return;  // ECHILD: none of our children is left in the group
    // Some are still dying (SIGKILL is asynchronous).
    if (std::chrono::steady_clock::now() >= give_up) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

void reap_if_our_child(pid_t pid, std::chrono::milliseconds patience) {
  if (pid <= 0) return;
  auto give_up = std::chrono::steady_clock::now() + patience;
  for (;;) {
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG) != 0) {
      if (errno == EINTR) continue;
      return;  // ECHILD: not ours
    }
    if (info.si_pid == pid) return;  // reaped
    if (std::chrono::steady_clock::now() >= give_up) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

}  // namespace parlab::grader::process
