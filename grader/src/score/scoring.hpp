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

// Points rounded to 1/100 so reports and gradebooks agree.
double round_points(double points);

}  // namespace parlab::grader
