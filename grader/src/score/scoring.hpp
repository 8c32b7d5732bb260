#pragma once
// The performance scale (documented in every handout and in docs/scoring.md):
// a measured ratio r (baseline time / candidate time, higher is better) earns
//   fraction = clamp( ln(r / zero_at) / ln(full_at / zero_at), 0, 1 )
// of the test's points: nothing at or below zero_at, everything at or above full_at,
// log-linear in between (so each doubling of speed is worth the same).
#include "spec/lab_spec.hpp"

namespace parlab::grader {

struct Thresholds {
  double full_at = 0;
  double zero_at = 0;
  int parallelism = 0;  // P the thresholds were scaled by; 0 when not scaled
};

double performance_fraction(double ratio, const Thresholds& t);

// For scale_with_cores tests the spec's thresholds are per-core efficiencies:
// multiplied by P = min(cores available, workers used).
Thresholds effective_thresholds(const PerformanceSpec& spec, int cores, int workers);

// A gain test's thresholds on this machine, now (docs/scoring.md, "What the reference
// itself gains here"): the reference's own candidate task, measured against the same
// baseline in the same pairs, reached `reference_ratio` (median), `reference_low` at the
// low end of its 95 % interval. Full credit is asked at no more than `share` of the low
// end's gain (the reference's own noise is the machine's, not the student's), on the
// scale's own log axis:
//   full_at' = min(full_at, max(zero_at * (reference_low / zero_at)^share, midpoint)),
// midpoint = sqrt(zero_at * full_at), the scale's log-midpoint: a noisy low end never
// lets the baseline's own code, handed in as the candidate, reach full credit by noise.
// Where the median reaches less than the log-midpoint of zero_at and full_at, this
// machine cannot show the gain the test is about: not judgeable. reference_ratio <= 0:
// not measured, the thresholds as they are.
struct GainThresholds {
  Thresholds asked;
  bool lowered = false;    // full_at' < full_at
  bool judgeable = true;
};
GainThresholds within_reference_gain(const Thresholds& t, double reference_ratio,
                                     double reference_low, double share);

// The speedup over a 1-worker run a parallel test asks on this machine, now (docs/
// scoring.md, "Useful work, not busy cores"): `required` (min_own_speedup), lowered to
// `share` of the reference's own 2-worker over 1-worker speedup measured in the same
// grading (log axis), never below sqrt(required): a program that only keeps cores busy
// (1.0x) still fails. reference_own <= 0: not measured, `required`.
double asked_own_speedup(double required, double reference_own, double share);

// Points rounded to 1/100 so reports and gradebooks agree.
double round_points(double points);

}  // namespace parlab::grader
