#include "process/spawn_child.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/env.hpp>
#include <boost/process/environment.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/extend.hpp>
#include <boost/process/io.hpp>
#include <boost/process/pipe.hpp>
#include <cerrno>
#include <stdexcept>
#include <system_error>

namespace parlab::grader::process {
namespace {

namespace bp = boost::process;

// A child whose pre-exec setup failed exits with this plus the step number.
// Boost.Process hands the grader only errno, not its message, so the exit
// status is how the grader learns which step failed.
constexpr int kSetupFailedExitBase = 100;
constexpr int kNoChild = -1;  // on_error without a forked child (fork itself failed)

// Boost.Process initializer: runs apply_child_setup() in the child between fork
// and exec. On failure (setup or execve) Boost reports errno but leaves the child
// a zombie: on_error reaps it and keeps its exit status.
class ChildSetupInitializer : public bp::extend::handler {
 public:
  ChildSetupInitializer(const ChildSetupPlan& plan, int* failed_child_status)
      : plan_(plan), failed_child_status_(failed_child_status) {}

  template <class Executor>
  void on_exec_setup(Executor& exec) const {
    ChildSetupFailure failure = apply_child_setup(plan_);
    if (failure.error != 0) {
      exec.set_error(std::error_code(failure.error, std::system_category()), "child setup");
      ::_exit(kSetupFailedExitBase + static_cast<int>(failure.step));
    }
  }

  template <class Executor>
  void on_error(Executor& exec, const std::error_code&) const {
    if (exec.pid <= 0) return;
    while (::waitpid(exec.pid, failed_child_status_, 0) < 0 && errno == EINTR) {
    }
  }

 private:
  const ChildSetupPlan& plan_;
  int* failed_child_status_;
};

// "setresuid to the unprivileged user failed: Operation not permitted".
std::string describe_start_failure(const std::error_code& error, int child_status) {
  std::string step = "execve";
  if (child_status == kNoChild) {
    step = "creating the process";
  } else if (WIFEXITED(child_status)) {
    int code = WEXITSTATUS(child_status) - kSetupFailedExitBase;
    if (code > 0 && code < kChildSetupStepCount) step = describe(static_cast<ChildSetupStep>(code));
  }
  return step + " failed: " + error.message();
}

bp::environment exact_environment(const std::map<std::string, std::string>& env) {
  bp::environment result;  // starts empty: nothing is inherited from the grader
  for (const auto& [name, value] : env) result[name] = value;
  return result;
}

}  // namespace

SpawnedChild spawn_child(const std::string& program, const std::vector<std::string>& args,
                         const std::map<std::string, std::string>& env,
                         const ChildSetupPlan& plan) {
  Pipe out = make_pipe();
  Pipe err = make_pipe();
  // Boost's pipe takes the ends; pipe_out closes the write end in the grader
  // after the fork, and we take the read end back below.
  bp::pipe out_pipe(out.read_end.release(), out.write_end.release());
  bp::pipe err_pipe(err.read_end.release(), err.write_end.release());

  std::error_code error;
  int failed_child_status = kNoChild;
  // clang-format off
  bp::child child(bp::exe = program, bp::args = args, exact_environment(env),
                  bp::std_in < bp::null,
                  bp::std_out > out_pipe,
                  bp::std_err > err_pipe,
                  ChildSetupInitializer(plan, &failed_child_status), error);
  // clang-format on
  if (error) {
    throw std::runtime_error("cannot start " + program + ": " +
                             describe_start_failure(error, failed_child_status));
  }
  SpawnedChild spawned;
  spawned.pid = child.id();
  child.detach();  // we reap it ourselves (wait4), Boost must not
  spawned.stdout_read = UniqueFd(out_pipe.native_source());
  out_pipe.assign_source(-1);
  spawned.stderr_read = UniqueFd(err_pipe.native_source());
  err_pipe.assign_source(-1);
  return spawned;
}

}  // namespace parlab::grader::process
