#pragma once
// How a run's work was spread over processes and threads, as the grader saw it
// (docs/scoring.md, "Observed parallelism"). The harness's timings are claims; this is
// not: the grader samples the CPU time of every process and thread of the run's tree
// from /proc while it runs. A serial program has all its CPU time in one thread; a
// pool of P busy workers spreads it over P. On a busy machine a dynamic queue hands
// more work to the less disturbed worker, so the verdict does not judge the spread there
// (grading/performance_verdict).
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <utility>
#include <vector>

namespace parlab::grader::process {

struct TreeUsage {
  bool observed = false;        // false: /proc showed nothing of the tree
  int processes = 0;            // processes that did at least 5 % of the work
  int threads = 0;              // threads that did at least 5 % of the work
  double cpu_seconds = 0;       // the run's own processes together (what was sampled)
  double helper_seconds = 0;    // the sandbox's helpers (bubblewrap), apart from the work
  double busiest_process_s = 0;
  double busiest_thread_s = 0;
  int samples = 0;              // looks taken

  // A process that lives shorter than the sampling period can end unseen (its CPU time
  // then goes unattributed): the spread is only trusted when the sampled CPU time covers
  // most of the tree's, measured apart (cgroup or wait4). 0 <= coverage, 1 = all of it;
  // 0 when no total was measured apart (bubblewrap's pid namespace without a cgroup).
  // The total includes the sandbox's helpers, so they count as seen here.
  double coverage(double tree_cpu_seconds) const;

  // Total CPU time over the busiest process's (thread's): 1 for serial work, P for
  // work shared evenly by P processes (threads). 0 when nothing was observed.
  double process_spread() const;
  double thread_spread() const;
};

// Samples one run's process tree. `root` is the child the grader started; with a
// cgroup, `procs_file` (its cgroup.procs) lists the tree, else /proc is walked from root.
// `helper_depth` is how many levels from the root are the sandbox's own helpers, not
// the run's work (bubblewrap: its monitor, the root, and its init, the root's child;
// 0 without a sandbox). Their start-up CPU time is a few milliseconds, which in a short
// serial run was a twentieth of the work and counted as a second working process.
class TreeSampler {
 public:
  explicit TreeSampler(pid_t root, std::filesystem::path procs_file = {}, int helper_depth = 0);
  // One look, unless the looks so far would then cost more than a tenth of the time
  // (a big tree without a cgroup means walking all of /proc).
  void sample();
  TreeUsage usage() const;

 private:
  std::vector<pid_t> tree_pids();
  void sample_process(pid_t pid);
  bool is_helper(pid_t pid, pid_t ppid) const;

  pid_t root_;
  int helper_depth_;
  std::filesystem::path procs_file_;
  long ticks_per_second_;
  int samples_ = 0;
  std::chrono::steady_clock::time_point next_allowed_{};
  // CPU seconds keyed by (id, start time): an id reused during the run is another task.
  // CPU time only grows, so the largest value seen is the task's latest.
  using TaskKey = std::pair<pid_t, unsigned long long>;
  std::map<TaskKey, double> process_seconds_;
  std::map<TaskKey, double> thread_seconds_;
  std::map<TaskKey, double> helper_seconds_;
  std::map<pid_t, bool> in_tree_;  // without a cgroup: each process listed so far, in the tree?
};

}  // namespace parlab::grader::process
