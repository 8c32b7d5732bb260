#include "measure/side_by_side.hpp"

#include <algorithm>

#include "measure/statistics.hpp"

namespace parlab::grader {

SideBySide measure_side_by_side(const TimedRun& baseline, const TimedRun& candidate,
                                const PerformanceSpec& policy,
                                const std::function<double()>& elapsed) {
  SideBySide out;
  Measurement& m = out.measurement;
  m.warmup_pairs = policy.warmup_pairs;

  auto one_pair = [&](double& b, double& c) {
    std::string err;
    auto tb = baseline(err);
    if (!tb) {
      out.error = "baseline run failed: " + err;
      return false;
    }
    auto tc = candidate(err);
    if (!tc) {
      out.error = err;
      out.candidate_failed = true;
      return false;
    }
    b = *tb;
    c = *tc;
    return true;
  };

  for (int i = 0; i < policy.warmup_pairs; ++i) {
    double b, c;
    if (!one_pair(b, c)) return out;
  }
  while (true) {
    double b, c;
    if (!one_pair(b, c)) return out;
    out.baseline_s.push_back(b);
    out.candidate_s.push_back(c);
    // A zero time cannot be a ratio; clamp to the clock's resolution.
    m.ratios.push_back(b / std::max(c, 1e-9));
    const int pairs = static_cast<int>(m.ratios.size());
    const bool over_budget = elapsed() >= policy.budget_seconds;
    // Three pairs is the least a median and a spread mean anything for; past the
    // budget we settle for them rather than keep a class waiting.
    if (pairs < 3 || (pairs < policy.min_pairs && !over_budget)) continue;
    m.spread = relative_spread(m.ratios);
    if (m.spread <= policy.max_spread) break;
    if (pairs >= policy.max_pairs || over_budget) {
      m.noisy = true;
      break;
    }
  }
  m.median_ratio = median(m.ratios);
  m.baseline_median_s = median(out.baseline_s);
  m.candidate_median_s = median(out.candidate_s);
  out.ok = true;
  return out;
}

}  // namespace parlab::grader
