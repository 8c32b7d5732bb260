#pragma once
// The runs behind a parallel test's speedup over a 1-worker run (docs/scoring.md,
// "Useful work, not busy cores"): the submission's 1-worker and parallel runs and the
// reference's, side by side in rounds, so a noisy minute slows all four alike.
#include <string>
#include <vector>

#include "measure/side_by_side.hpp"

namespace parlab::grader {

struct OwnSpeedupRunners {
  TimedRun own;                 // the submission's task, 1 worker
  TimedRun parallel;            // the submission's task, the test's workers
  TimedRun reference;           // the reference's, 1 worker (empty: none)
  TimedRun reference_parallel;  // the reference's, the test's workers (empty: none)
};

// The wall times each side gave. After a failed run of the submission's, only the
// reference's go on (a run failed on purpose buys no more than a slow one), and its
// parallel walls are dropped (the caller falls back on the pairs'); a failed run of the
// reference's ends the rounds with `reference_failed` and its `error`.
struct OwnSpeedupWalls {
  std::vector<double> own_s;
  std::vector<double> parallel_s;
  std::vector<double> reference_s;
  std::vector<double> reference_parallel_s;
  std::string error;
  bool own_failed = false;
  bool reference_failed = false;
  double others_cores = -1;  // the most cores other programs kept busy during any run (< 0: not seen)
};

// `rounds` rounds, round i starting i places into O P R Q (O P R Q, P R Q O, R Q O P,
// Q O P R): over four rounds each run takes each place once and none follows itself (a
// run that follows its own program finds its files in the caches: with O P R Q then
// Q R P O, the reference's parallel runs did at every other boundary, the submission's
// never).
OwnSpeedupWalls own_speedup_walls(const OwnSpeedupRunners& runners, int rounds);

}  // namespace parlab::grader
