#pragma once
// The real ProcessRunner: runs an untrusted lab executable (DESIGN invariant 1)
// under resource limits, as an unprivileged user when the grader is root, and
// inside a bubblewrap sandbox when bubblewrap works on this machine. What it
// does and does not protect against: docs/sandbox.md.
//
// Two error channels (DESIGN invariant 5):
//  - everything the program does (crash, timeout, too much output or memory, a
//    non-zero exit) is a RunResult with an outcome and a reason;
//  - a program that cannot be started at all (missing executable, no execute
//    permission, a view path that does not exist, bubblewrap failing to set up)
//    is the grader's fault, not the student's, and throws std::runtime_error
//    naming the path. A malformed request (non-positive wall limit, an
//    environment name with '=') throws std::invalid_argument.
//
// run() is safe to call from several threads at once; each call blocks its
// thread until the child and everything it started are gone.
#include <sys/types.h>

#include <filesystem>
#include <memory>
#include <string>

#include "process/process_runner.hpp"

namespace parlab::grader {

struct SandboxOptions {
  enum class Bubblewrap {
    if_available,  // use it when the probe succeeds, else rlimits only ("auto")
    required,      // throw std::runtime_error from the constructor if it does not work ("on")
    never,         // rlimits only ("off")
  };
  Bubblewrap use_bubblewrap = Bubblewrap::if_available;
  std::filesystem::path bubblewrap_path = "/usr/bin/bwrap";

  // When the grader runs as root: run the child as this user and group instead
  // (default nobody/nogroup). Without it RLIMIT_NPROC is not enforced and the
  // child can write anywhere root can. Ignored when the grader is not root.
  bool drop_privileges = true;
  uid_t unprivileged_uid = 65534;
  gid_t unprivileged_gid = 65534;

  // Bind /dev/nvidia* into the sandbox so CUDA programs can reach the GPU.
  bool expose_gpu_devices = true;
};

// "auto" | "on" | "off", for command-line flags. Throws std::invalid_argument.
SandboxOptions::Bubblewrap bubblewrap_mode_from_string(const std::string& text);

class SandboxedRunner final : public ProcessRunner {
 public:
  // Probes bubblewrap (once per process; cached). Throws std::runtime_error when
  // use_bubblewrap is `required` and bubblewrap does not work here.
  explicit SandboxedRunner(SandboxOptions options = {});

  RunResult run(const RunRequest& request) override;

  // "bubblewrap" or "rlimits only".
  std::string sandbox_name() const override;

  // Why bubblewrap is not used (for a report note); empty when it is used or
  // when it was turned off on purpose.
  const std::string& bubblewrap_problem() const { return bubblewrap_problem_; }

  // True when children run as options.unprivileged_uid (the grader is root and
  // drop_privileges is set).
  bool drops_privileges() const { return drop_privileges_; }

 private:
  SandboxOptions options_;
  bool use_bubblewrap_ = false;
  bool drop_privileges_ = false;
  std::string bubblewrap_problem_;
};

std::unique_ptr<ProcessRunner> make_sandboxed_runner(SandboxOptions options = {});

}  // namespace parlab::grader
