#pragma once
// What the grader itself saw of a timed child (DESIGN invariant 1: the harness runs
// inside the student's process, so its timings are claims, not facts), and the
// largest speedup those observations support.
//
// The rule. In each pair the baseline (grader-owned code) shows how long a process
// of this task takes beyond its timed calls: start-up, loading the dataset, writing
// outputs. Its timed work is reported_s x calls; the rest of its wall time is the
// untimed overhead. The candidate runs the same driver on the same data, so its own
// work cannot be less than its wall time minus that overhead. The speedup the
// observation supports is therefore
//     cap = baseline work / (candidate wall - overhead - slack)
// with a slack for the overhead's own noise (its spread over the pairs of the same
// measurement). Work done in a static constructor, in a background process or
// outside the timed region, or a clock that lies, shows up in the candidate's wall
// time and lowers the cap; an honest candidate's cap stays at or above its reported
// ratio.
//
// The overhead must be that of a program of the candidate's kind. Where the baseline
// is another kind (a CPU program against a CUDA candidate, whose process pays 0.3 to
// 0.6 s of context creation and module loading that a CPU program never pays), the
// grader also runs a *witness*: the reference's own implementation of the candidate's
// task, same data and call counts, in the same grading. Its untimed time is the
// start-up every program of that kind pays; the candidate is allowed that much.
#include <vector>

namespace parlab::grader {

// One child run as the grader saw it.
struct TimedSample {
  double reported_s = 0;  // the harness's median time per measured call (untrusted)
  double wall_s = 0;      // observed by the grader: spawn to exit
  double cpu_s = -1;      // observed by the grader: CPU time of the process tree (< 0: not observed)
  int calls = 1;          // task calls in the process (warm-up + measured)
  // How the run's CPU time was spread (process/tree_usage.hpp; 0: not observed) and
  // how many cores other programs (and the hypervisor's steal) kept busy meanwhile
  // (< 0: not observed).
  double process_spread = 0;
  double thread_spread = 0;
  int processes = 0;
  int threads = 0;
  double others_cores = -1;
};

struct ObservedSpeed {
  double cap = 0;          // median over pairs of the largest speedup observed (inf: unbounded)
  double overhead_s = 0;   // the baseline's median untimed cost per process
  double slack_s = 0;      // allowance for that cost's noise
  double candidate_cores = 0;  // median CPU time / wall time of the candidate's processes
                               // (0: CPU time not observed, e.g. under bubblewrap)
  bool resolvable = true;  // the timed work is large enough beside the overhead's noise
  bool witnessed = false;  // overhead and slack from the witness, not the baseline
};

// `baseline` and `candidate` are the measured pairs, index by index (same length).
// `witness` (may be empty): runs of the reference's own candidate task, whose untimed
// time then replaces the baseline's as the overhead allowed.
ObservedSpeed observed_speed(const std::vector<TimedSample>& baseline,
                             const std::vector<TimedSample>& candidate,
                             const std::vector<TimedSample>& witness = {});

// True when the harness's ratio claims more than the observation supports, beyond
// noise: the report then says "timing not trusted" with both figures.
bool claims_beyond_observation(double reported_ratio, const ObservedSpeed& observed);

}  // namespace parlab::grader
