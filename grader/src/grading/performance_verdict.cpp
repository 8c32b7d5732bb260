#include "grading/performance_verdict.hpp"

#include <algorithm>
#include <cstdio>

#include "measure/statistics.hpp"

namespace parlab::grader {

std::string format_ratio(double ratio) {
  char buf[32];
  if (ratio >= 1000) {
    std::snprintf(buf, sizeof buf, ">999x");
  } else {
    std::snprintf(buf, sizeof buf, "%.2fx", ratio);
  }
  return buf;
}

namespace {

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, s < 1 ? "%.1f ms" : "%.2f s", s < 1 ? s * 1000 : s);
  return buf;
}

std::string measured_sentence(const Measurement& m, const Thresholds& th) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "%s the speed of %s (median of %zu pairs, spread %.0f%%); full credit at >= "
                "%s, none at <= %s%s",
                format_ratio(m.median_ratio).c_str(), m.baseline.c_str(), m.ratios.size(),
                m.spread * 100, format_ratio(th.full_at).c_str(), format_ratio(th.zero_at).c_str(),
                th.parallelism
                    ? (" (scaled to " + std::to_string(th.parallelism) + " cores)").c_str()
                    : "");
  return buf;
}

// Said to student and instructor alike, with both figures, when the program's own
// timings claimed more than the grader saw.
std::string untrusted_timing_sentence(const Measurement& m) {
  return "; timing not trusted: the program's own timer reported " +
         format_ratio(m.reported_ratio) + ", but the grader observed at most " +
         format_ratio(m.observed_cap) + " from the wall time of the whole processes (" +
         seconds_text(m.overhead_s) +
         " of start-up and I/O allowed); work done before or outside the timed call, or a "
         "clock that lies, earns nothing on this test";
}

}  // namespace

PerformanceVerdict performance_verdict(const Measurement& m, const Thresholds& th,
                                       double max_points) {
  PerformanceVerdict v;
  const double fraction = performance_fraction(m.median_ratio, th);
  v.message = measured_sentence(m, th);
  if (!m.timing_trusted) {
    // A program caught claiming more than it did earns nothing on this test, and the
    // instructor sees both figures.
    v.status = TestStatus::failed;
    v.points = 0;
    v.message += untrusted_timing_sentence(m);
    return v;
  }
  if (m.noisy && fraction < 1) {
    // Too noisy to judge: never fail a student on noise. Credit the upper quartile
    // of the ratios (never above what the grader observed) and flag it for a re-run.
    double generous_ratio = quantile(m.ratios, 0.75);
    if (m.observed_cap > 0) generous_ratio = std::min(generous_ratio, m.observed_cap);
    const double generous = std::max(fraction, performance_fraction(generous_ratio, th));
    v.status = TestStatus::inconclusive;
    v.points = round_points(max_points * generous);
    v.message += "; measurement too noisy to judge (re-run on a quieter machine)";
    return v;
  }
  v.points = round_points(max_points * fraction);
  v.status = fraction >= 1 ? TestStatus::passed
             : fraction <= 0 ? TestStatus::failed
                             : TestStatus::partial;
  return v;
}

}  // namespace parlab::grader
