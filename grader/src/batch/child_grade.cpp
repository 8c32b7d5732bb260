#include "batch/child_grade.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/extend.hpp>
#include <boost/process/io.hpp>
#include <chrono>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <thread>

namespace bp = boost::process;
namespace fs = std::filesystem;

namespace parlab::grader::batch {
namespace {

// Between fork and exec: async-signal-safe calls only.
struct GroupAndDeathSignal : bp::extend::handler {
  template <class Executor>
  void on_exec_setup(Executor&) const {
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  }
};

std::string last_error_line(const fs::path& log) {
  std::ifstream in(log);
  std::string line, last;
  while (std::getline(in, line)) {
    if (line.rfind("grade: error: ", 0) == 0) last = line.substr(14);
  }
  return last;
}

}  // namespace

std::string ChildRun::describe() const {
  std::string s;
  if (timed_out) {
    s = "the grading took longer than its time cap (" + std::to_string(static_cast<int>(seconds)) +
        " s) and was stopped";
  } else if (signal != 0) {
    s = "the grader process was killed by signal " + std::to_string(signal) + " (" + ::strsignal(signal) + ")";
  } else {
    s = "the grader exited with status " + std::to_string(exit_code);
  }
  if (!error_line.empty()) s += ": " + error_line;
  return s;
}

fs::path self_executable() { return fs::read_symlink("/proc/self/exe"); }

ChildRun run_child(const fs::path& exe, const std::vector<std::string>& args, const fs::path& log,
                   double timeout_s) {
  ChildRun out;
  const auto t0 = std::chrono::steady_clock::now();
  std::error_code ec;
  bp::child c(bp::exe = exe.string(), bp::args = args, bp::std_in < bp::null,
              (bp::std_out & bp::std_err) > log.string(), GroupAndDeathSignal{}, ec);
  if (ec) throw std::runtime_error("cannot start " + exe.string() + ": " + ec.message());
  const pid_t pid = c.id();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  // Polling keeps this simple and thread-safe; a grading takes seconds, 50 ms is noise.
  while (c.running(ec)) {
    if (elapsed() > timeout_s) {
      // Not reaped yet, so the group id cannot belong to anyone else.
      ::kill(-pid, SIGKILL);
      out.timed_out = true;
      c.wait(ec);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const int status = c.native_exit_code();
  if (WIFEXITED(status)) out.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) out.signal = WTERMSIG(status);
  out.seconds = elapsed();
  out.error_line = last_error_line(log);
  return out;
}

}  // namespace parlab::grader::batch
