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

  std::vector<TimedSample> base_seen;
  std::vector<TimedSample> cand_seen;
  auto one_pair = [&](TimedSample& b, TimedSample& c) {
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
    TimedSample b, c;
    if (!one_pair(b, c)) return out;
  }
  while (true) {
    TimedSample b, c;
    if (!one_pair(b, c)) return out;
    out.baseline_s.push_back(b.reported_s);
    out.candidate_s.push_back(c.reported_s);
    base_seen.push_back(b);
    cand_seen.push_back(c);
    // A zero time cannot be a ratio; clamp to the clock's resolution.
    m.ratios.push_back(b.reported_s / std::max(c.reported_s, 1e-9));
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
  m.reported_ratio = median(m.ratios);
  m.baseline_median_s = median(out.baseline_s);
  m.candidate_median_s = median(out.candidate_s);
  // Credit never exceeds what the grader saw itself (measure/observed_speed.hpp).
  out.observed = observed_speed(base_seen, cand_seen);
  m.observed_cap = out.observed.cap;
  m.overhead_s = out.observed.overhead_s;
  m.candidate_cores = out.observed.candidate_cores;
  m.timing_trusted = !claims_beyond_observation(m.reported_ratio, out.observed);
  m.median_ratio = std::min(m.reported_ratio, out.observed.cap);
  out.ok = true;
  return out;
}

}  // namespace parlab::grader
