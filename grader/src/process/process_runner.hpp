#pragma once
// Runs one child process under limits and reports how it ended. The interface is
// small so tests and the scheduler can use a fake (ninja's habit).
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/resource_limits.hpp"
#include "process/tree_usage.hpp"
#include "result/result.hpp"

namespace parlab::grader {

// What the sandbox may show the child. Paths not listed are invisible under bubblewrap.
struct SandboxView {
  std::vector<std::filesystem::path> read_only;   // e.g. the executable's dir, the dataset
  std::vector<std::filesystem::path> read_write;  // the child's private work dir
};

struct RunRequest {
  std::filesystem::path executable;
  std::vector<std::string> args;
  std::filesystem::path work_dir;      // cwd of the child; created if missing
  std::map<std::string, std::string> env;  // the child's whole environment
  // The simulator runtime's settings, "NAME=value" lines, handed through the inherited
  // descriptor parlab_sim::kSettingsDescriptor (a sealed memory file), never through the
  // environment the submission can read; empty: no such descriptor.
  std::string simulator_settings;
  ResourceLimits limits;
  SandboxView view;
  // Performance runs: sample the process tree's CPU time by process and thread and the
  // machine's other load while it runs (RunResult::tree, others_cpu_seconds).
  bool observe = false;
};

struct RunResult {
  RunOutcome outcome = RunOutcome::not_run;
  int exit_code = -1;                  // when it exited
  int signal = 0;                      // when killed by a signal
  std::string signal_name;             // "SIGSEGV"
  double wall_seconds = 0;            // observed by the grader: spawn to exit
  double cpu_seconds = -1;            // observed by the grader: user+system time of the
                                      // child and the descendants it waited for (wait4);
                                      // < 0: not observable (bubblewrap's pid namespace
                                      // hides its tree from wait4)
  std::string stdout_text;             // first limits.output_bytes bytes
  std::string stderr_text;
  bool stdout_truncated = false;
  bool stderr_truncated = false;
  std::uint64_t stdout_bytes = 0;      // total produced
  std::uint64_t stderr_bytes = 0;
  std::string reason;                  // human text for any outcome but ok
  // Only when RunRequest::observe: how the work was spread (process/tree_usage.hpp),
  // and the CPU time the rest of the machine used during the run (/proc/stat busy time
  // less the run's own; < 0: not observed) and the hypervisor's steal time.
  process::TreeUsage tree;
  double others_cpu_seconds = -1;
  double steal_seconds = -1;
  // Only for a run given simulator settings: what the simulator wrote through its
  // report channel (sim/include/parlab_sim/settings_descriptor.hpp), which the grader read
  // while the run went on, and whether there was more than it keeps. Empty optional: the
  // runner gave no channel (the report, if any, is in the run's files).
  std::optional<std::string> simulator_report;
  bool simulator_report_truncated = false;
};

class ProcessRunner {
 public:
  virtual ~ProcessRunner() = default;
  virtual RunResult run(const RunRequest& request) = 0;
  // "bubblewrap" or "rlimits only": shown in every report.
  virtual std::string sandbox_name() const = 0;
  // The runner for the reference's runs (another identity, so the submission cannot
  // read the reference's files); by default the same runner.
  virtual ProcessRunner& for_reference() { return *this; }
  // How runs are kept apart beyond the sandbox (uid pool, cgroups), for the report;
  // empty when there is nothing to say.
  virtual std::string isolation() const { return ""; }
};

}  // namespace parlab::grader
