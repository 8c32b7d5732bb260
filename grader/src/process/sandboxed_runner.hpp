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
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "process/process_runner.hpp"
#include "process/run_cgroup.hpp"
#include "process/uid_pool.hpp"

namespace parlab::grader {

struct SandboxOptions {
  enum class Bubblewrap {
    if_available,  // use it when the probe succeeds, else rlimits only ("auto")
    required,      // throw std::runtime_error from the constructor if it does not work ("on")
    never,         // rlimits only ("off")
  };
  Bubblewrap use_bubblewrap = Bubblewrap::if_available;
  std::filesystem::path bubblewrap_path = "/usr/bin/bwrap";

  // When the grader runs as root: run the child as an unprivileged user. Without
  // it RLIMIT_NPROC is not enforced and the child can write anywhere root can.
  // Ignored when the grader is not root.
  bool drop_privileges = true;
  // With the pool (default), each runner leases its own uid (uid_pool.hpp) and its
  // reference runner (for_reference()) another one, so limits and files are per
  // grading and per side. Without it, every child runs as this fixed user.
  bool use_uid_pool = true;
  process::UidPoolConfig uid_pool = process::uid_pool_config_from_environment();
  uid_t unprivileged_uid = 65534;
  gid_t unprivileged_gid = 65534;

  // A cgroup per run where the machine offers one (run_cgroup.hpp).
  bool use_cgroups = true;

  // Bind /dev/nvidia* into the sandbox so CUDA programs can reach the GPU.
  bool expose_gpu_devices = true;
};

// "auto" | "require" (or "on") | "off", for command-line flags. Throws std::invalid_argument.
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

  // True when children run as an unprivileged user (the grader is root and
  // drop_privileges is set).
  bool drops_privileges() const { return drop_privileges_; }
  uid_t run_uid() const { return uid_; }

  // A runner for the reference's runs: the same sandbox under another uid, leased
  // with this one, so the submission's uid cannot read what the reference wrote.
  // Its group is the references' (uid_pool.hpp), and it is not in the submissions'
  // group. Without a pool (as root) the same uid with that group; itself when the
  // grader is not root.
  ProcessRunner& for_reference() override;

  // "uid pool (60500), cgroup v1 memory+pids+cpuacct", for the report.
  std::string isolation() const override;

  // The group every run of a submission has, which the instructor's files refuse
  // (grading/reference_seal); empty when the grader is not root (then the submission
  // runs as the grader's own user and nothing can be sealed).
  std::optional<gid_t> submissions_gid() const;

 private:
  // The reference's runner: a leased uid, or without a pool the parent's uid; the
  // references' group either way.
  SandboxedRunner(const SandboxedRunner& parent, std::optional<process::UidLease> lease);
  // Each run() counts itself in; the last one out sweeps the uid's leftovers.
  void begin_run();
  void end_run();
  void sweep_leftovers();
  // Which shared scratch folders a run with these writable paths could leave files in.
  void note_scratch_reach(const std::vector<std::filesystem::path>& read_write,
                          const std::filesystem::path& work_dir);

  SandboxOptions options_;
  bool use_bubblewrap_ = false;
  bool drop_privileges_ = false;
  bool hide_other_processes_ = false;
  std::string process_view_;  // for isolation(): what the runs see of other processes
  std::string bubblewrap_problem_;
  std::optional<process::UidLease> lease_;
  uid_t uid_ = 0;
  gid_t gid_ = 0;
  bool runs_reference_ = false;  // the reference's runner: not in the submissions' group
  process::CgroupSupport cgroups_;
  std::unique_ptr<SandboxedRunner> reference_runner_;
  std::mutex runs_mutex_;  // held while sweeping: no run of the uid may start then
  int runs_in_flight_ = 0;
  // The scratch folders the runs since the last sweep could write into (all of them
  // without bubblewrap): the end-of-runs sweep searches only these.
  std::set<std::filesystem::path> scratch_reached_;   // whole shared folders
  std::set<std::filesystem::path> scratch_subtrees_;  // writable binds inside one
};

std::unique_ptr<ProcessRunner> make_sandboxed_runner(SandboxOptions options = {});

}  // namespace parlab::grader
