#pragma once
// What a performance measurement allows at either end of its noise (docs/scoring.md,
// "Decided where the points cannot differ"): the ratio's 95 % interval, widened on a
// busy machine by as much as the load could have slowed one side, and the parallel
// rules read at their most and least favourable. Pure: the verdict asks whether the
// points at the two ends differ, and only then is a test inconclusive.
#include "result/result.hpp"
#include "spec/lab_vocabulary.hpp"

namespace parlab::grader {

// What the test asks of the candidate's parallelism (PerformanceSpec::parallel).
struct ParallelRule {
  ParallelKind unit = ParallelKind::none;
  int cores = 0;        // cores available to the grading
  int test_cores = 1;   // cores the test's runs keep busy (its workers, at most `cores`)
  Track track = Track::cpp;  // the candidate's language: which lessons a failure names
};

// One reading of the measurement: the ratio credited and whether each parallel rule
// holds at it.
struct VerdictEnd {
  double ratio = 0;
  bool spread_ok = true;
  bool own_speedup_ok = true;
  bool parallel_ok() const { return spread_ok && own_speedup_ok; }
};

struct VerdictBounds {
  VerdictEnd best;       // the most favourable reading the noise allows
  VerdictEnd measured;   // the figures as measured
  VerdictEnd worst;      // the least favourable
  bool uncertain = false;  // noisy or disturbed: best and worst may differ
};

// How much slower the load could have made one side: with L cores' worth of other
// programs beside the test's P busy cores on a machine of C, the test keeps at least
// P / (P + L) of its cores where the scheduler shares threads evenly, and C - L (at
// least one) where it shares control groups evenly, as systemd and containers have it.
// The larger slowdown of the two; 1 on a quiet machine. `machine_cores` 0: C = P.
double load_allowance(double other_cores, int test_cores, int machine_cores);

bool spread_missing(const Measurement& m, const ParallelRule& rule);
bool own_speedup_missing(const Measurement& m);

// Whether the reference's own speedup over its 1-worker runs fell short of what the test
// asks here: then nobody's can be judged on this machine now.
bool own_speedup_unjudgeable(const Measurement& m);

VerdictBounds verdict_bounds(const Measurement& m, const ParallelRule& rule);

}  // namespace parlab::grader
