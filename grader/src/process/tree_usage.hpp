#pragma once
// How a run's work was spread over processes and threads, as the grader saw it
// (docs/scoring.md, "Observed parallelism"). The harness's timings are claims; this is
// not: the grader samples the CPU time of every process and thread of the run's tree
// from /proc while it runs. A serial program has all its CPU time in one thread; a
// pool of P busy workers spreads it over P. Unlike CPU time over wall time, the spread
// does not fall when another program takes a core: time-slicing slows every worker
// alike.
#include <sys/types.h>

#include <filesystem>
#include <map>
#include <utility>
#include <vector>

namespace parlab::grader::process {

struct TreeUsage {
  bool observed = false;        // false: /proc showed nothing of the tree
  int processes = 0;            // processes that used CPU time
  int threads = 0;              // threads that used CPU time
  double cpu_seconds = 0;       // all processes together (what was sampled)
  double busiest_process_s = 0;
  double busiest_thread_s = 0;

  // Total CPU time over the busiest process's (thread's): 1 for serial work, P for
  // work shared evenly by P processes (threads). 0 when nothing was observed.
  double process_spread() const;
  double thread_spread() const;
};

// Samples one run's process tree. `root` is the child the grader started; with a
// cgroup, `procs_file` (its cgroup.procs) lists the tree, else /proc is walked from root.
class TreeSampler {
 public:
  explicit TreeSampler(pid_t root, std::filesystem::path procs_file = {});
  void sample();  // one look; cheap enough for every 50 ms
  TreeUsage usage() const;

 private:
  std::vector<pid_t> tree_pids() const;
  void sample_process(pid_t pid);

  pid_t root_;
  std::filesystem::path procs_file_;
  long ticks_per_second_;
  // Keyed by (id, start time): an id reused during the run is another task. CPU time
  // only grows, so the largest value seen is the task's latest.
  using TaskKey = std::pair<pid_t, unsigned long long>;
  std::map<TaskKey, unsigned long long> process_ticks_;
  std::map<TaskKey, unsigned long long> thread_ticks_;
};

}  // namespace parlab::grader::process
