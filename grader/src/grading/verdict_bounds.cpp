#include "grading/verdict_bounds.hpp"

#include <algorithm>

#include "measure/statistics.hpp"

namespace parlab::grader {

double load_allowance(double other_cores, int test_cores, int machine_cores) {
  const double p = std::max(test_cores, 1);
  const double load = std::max(other_cores, 0.0);
  // Runnable threads shared evenly: P workers beside L busy cores keep P / (P + L).
  const double threads_fair = (p + load) / p;
  // Control groups shared evenly (systemd's slices, containers, a desktop's apps): the
  // other programs' group keeps its L cores and the test's workers share what is left,
  // so beside one busy core a 2-worker run on 2 cores gets one, a 1-worker run all it
  // needs. Never less than one core: the test's group has at least an equal share.
  const double cores = machine_cores > 0 ? machine_cores : p;
  const double left = std::clamp(cores - load, 1.0, p);
  return std::max(threads_fair, p / left);
}

bool spread_missing(const Measurement& m, const ParallelRule& rule) {
  return rule.unit != ParallelKind::none && m.required_cores > 0 && m.work_spread > 0 &&
         m.work_spread < m.required_cores;
}

// A burner (a serial program with a child that only burns CPU) spreads CPU time, not
// work: its 1-worker run is as fast as its parallel one.
bool own_speedup_missing(const Measurement& m) {
  return m.required_own_speedup > 0 && m.own_speedup > 0 &&
         m.own_speedup < m.required_own_speedup;
}

bool own_speedup_unjudgeable(const Measurement& m) {
  return m.reference_own_speedup > 0 && m.reference_own_speedup < m.required_own_speedup;
}

namespace {

// The median's 95 % interval, as the measurement recorded it or from its ratios.
Interval ratio_interval(const Measurement& m) {
  if (m.ratio_high > 0) return {std::min(m.ratio_low, m.median_ratio), m.ratio_high};
  if (m.ratios.empty()) return {m.median_ratio, m.median_ratio};
  Interval ci = median_interval(m.ratios);
  // Never above what the grader observed itself.
  if (m.observed_cap > 0) ci.high = std::min(ci.high, m.observed_cap);
  return {std::min(ci.low, m.median_ratio), std::max(ci.high, m.median_ratio)};
}

}  // namespace

VerdictBounds verdict_bounds(const Measurement& m, const ParallelRule& rule) {
  VerdictBounds b;
  const bool rules = rule.unit != ParallelKind::none;
  b.measured = {m.median_ratio, !spread_missing(m, rule), !(rules && own_speedup_missing(m))};
  b.best = b.worst = b.measured;
  const bool busy = !m.interference.empty();
  // The speedup over a 1-worker run varied between its rounds across the bar (short of
  // it at the median, past it at the interval's favourable end), or the reference's own
  // did not reach it here: it cannot be judged.
  if (rules && !b.measured.own_speedup_ok &&
      (m.own_speedup_high >= m.required_own_speedup || own_speedup_unjudgeable(m))) {
    b.best.own_speedup_ok = true;
  }
  b.uncertain = m.noisy || busy || b.best.own_speedup_ok != b.measured.own_speedup_ok;
  if (!(m.noisy || busy)) return b;
  const double allowance = busy ? load_allowance(m.other_cores, rule.test_cores, rule.cores) : 1.0;
  const Interval ci = ratio_interval(m);
  b.best.ratio = ci.high * allowance;
  b.worst.ratio = ci.low / allowance;
  if (busy) {
    // Another program on the cores slows one worker more than the other, and a dynamic
    // queue then hands the faster one more of the work: the spread says nothing here.
    b.best.spread_ok = true;
    b.best.own_speedup_ok = b.best.own_speedup_ok || b.measured.own_speedup_ok ||
                            m.own_speedup * allowance >= m.required_own_speedup;
  }
  return b;
}

}  // namespace parlab::grader
