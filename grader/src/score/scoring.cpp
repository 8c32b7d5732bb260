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

double round_points(double points) { return std::round(points * 100.0) / 100.0; }

}  // namespace parlab::grader
