#include "score/scoring.hpp"

#include <algorithm>
#include <cmath>

namespace parlab::grader {

double performance_fraction(double ratio, const Thresholds& t) {
  if (!(ratio > 0) || !std::isfinite(ratio)) return 0;
  if (ratio >= t.full_at) return 1;
  if (ratio <= t.zero_at) return 0;
  return std::clamp(std::log(ratio / t.zero_at) / std::log(t.full_at / t.zero_at), 0.0, 1.0);
}

Thresholds effective_thresholds(const PerformanceSpec& spec, int cores, int workers) {
  Thresholds t{spec.full_at, spec.zero_at, 0};
  if (!spec.scale_with_cores) return t;
  int p = std::max(1, cores);
  if (workers > 0) p = std::min(p, workers);
  t.full_at *= p;
  t.zero_at *= p;
  t.parallelism = p;
  return t;
}

GainThresholds within_reference_gain(const Thresholds& t, double reference_ratio,
                                     double reference_low, double share) {
  GainThresholds g{t};
  if (!(reference_ratio > 0) || !std::isfinite(reference_ratio)) return g;
  g.judgeable = reference_ratio >= std::sqrt(t.zero_at * t.full_at);
  const double low = reference_low > 0 ? std::min(reference_low, reference_ratio) : reference_ratio;
  // Never below the log-midpoint: a noisy low end must not let the baseline's own code,
  // handed in as the candidate, reach full credit by noise.
  const double midpoint = std::sqrt(t.zero_at * t.full_at);
  const double asked = std::max(t.zero_at * std::pow(low / t.zero_at, share), midpoint);
  if (asked < t.full_at) {
    g.asked.full_at = asked;
    g.lowered = true;
  }
  return g;
}

double asked_own_speedup(double required, double reference_own, double share) {
  if (!(reference_own > 0) || !std::isfinite(reference_own) || !(required > 1)) return required;
  return std::min(required, std::max(std::pow(reference_own, share), std::sqrt(required)));
}

double round_points(double points) { return std::round(points * 100.0) / 100.0; }

}  // namespace parlab::grader
