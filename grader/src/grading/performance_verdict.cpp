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
                "%s the speed of %s (median of %zu pairs%s, spread %.0f%%); full credit at >= "
                "%s, none at <= %s%s",
                format_ratio(m.median_ratio).c_str(), m.baseline.c_str(), m.ratios.size(),
                m.ratio_high > 0 ? (", 95% interval " + format_ratio(m.ratio_low) + " to " +
                                    format_ratio(m.ratio_high)).c_str()
                                 : "",
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

// "your run kept 1.03 of 2 cores busy; its work was spread over 1.01 threads (1 process,
// 1 thread)": what the grader saw, stated on every CPU result where it was observed.
std::string parallelism_sentence(const Measurement& m, const ParallelRule& rule) {
  if (!(m.work_spread > 0)) return "";
  char buf[256];
  std::string busy;
  if (m.candidate_cores > 0 && rule.cores > 0) {
    std::snprintf(buf, sizeof buf, "your run kept %.2f of %d cores busy; ", m.candidate_cores,
                  rule.cores);
    busy = buf;
  }
  std::snprintf(buf, sizeof buf, "%sits work was spread over %.2f %s (%d process%s, %d thread%s)",
                busy.c_str(), m.work_spread, rule.unit == ParallelKind::processes ? "processes" : "threads",
                m.candidate_processes, m.candidate_processes == 1 ? "" : "es",
                m.candidate_threads, m.candidate_threads == 1 ? "" : "s");
  return buf;
}

bool parallelism_missing(const Measurement& m, const ParallelRule& rule) {
  return rule.unit != ParallelKind::none && m.required_cores > 0 && m.work_spread > 0 &&
         m.work_spread < m.required_cores;
}

std::string not_parallel_sentence(const Measurement& m, const ParallelRule& rule) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "; not parallel: this test needs the work spread over at least %.1f %s, and "
                "one %s did most of it, so speed earns nothing here",
                m.required_cores, to_string(rule.unit),
                rule.unit == ParallelKind::processes ? "process" : "thread");
  std::string out = buf;
  if (rule.unit == ParallelKind::processes && m.candidate_processes <= 1 && m.candidate_threads > 1) {
    out += " (threads do not count: this lab asks for worker processes, e.g. fork)";
  }
  return out;
}

// A burner (a serial program with a child that only burns CPU) spreads CPU time, not
// work: its own 1-worker run is as fast as its parallel one.
bool own_speedup_missing(const Measurement& m) {
  return m.required_own_speedup > 0 && m.own_speedup > 0 &&
         m.own_speedup < m.required_own_speedup;
}

std::string own_speedup_sentence(const Measurement& m) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "; not parallel: with 1 worker your own task '%s' took %.2fx as long as with %d "
                "(this test needs %.2fx), so its workers did not share the work; processes or "
                "threads that only keep cores busy do not count, and speed earns nothing here",
                m.candidate.substr(m.candidate.find(':') + 1).c_str(), m.own_speedup,
                m.own_speedup_workers,
                m.required_own_speedup);
  return buf;
}

}  // namespace

PerformanceVerdict performance_verdict(const Measurement& m, const Thresholds& th,
                                       double max_points, const ParallelRule& rule) {
  PerformanceVerdict v;
  const double fraction = performance_fraction(m.median_ratio, th);
  v.message = measured_sentence(m, th);
  if (const std::string seen = parallelism_sentence(m, rule); !seen.empty()) {
    v.message += "; " + seen;
  }
  if (m.own_speedup > 0 && !own_speedup_missing(m)) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "; %.2fx as fast as your own run with 1 worker",
                  m.own_speedup);
    v.message += buf;
  }
  if (!m.timing_trusted) {
    // A program caught claiming more than it did earns nothing on this test, and the
    // instructor sees both figures.
    v.status = TestStatus::failed;
    v.points = 0;
    v.message += untrusted_timing_sentence(m);
    return v;
  }
  if (parallelism_missing(m, rule)) {
    if (!m.interference.empty()) {
      // Another program on the cores slows one worker more than the other, and a dynamic
      // queue then hands the faster one more of the work: the spread says nothing here.
      v.status = TestStatus::inconclusive;
      v.points = 0;
      v.message += "; inconclusive: machine busy (" + m.interference +
                   "), so how the work was shared cannot be judged; nothing is counted "
                   "against you: close other programs and re-run";
      return v;
    }
    v.status = TestStatus::failed;
    v.points = 0;
    v.message += not_parallel_sentence(m, rule);
    return v;
  }
  if (rule.unit != ParallelKind::none && own_speedup_missing(m)) {
    if (!m.interference.empty()) {
      v.status = TestStatus::inconclusive;
      v.points = 0;
      v.message += "; inconclusive: machine busy (" + m.interference +
                   "), so the speedup over your own 1-worker run cannot be judged; nothing "
                   "is counted against you: close other programs and re-run";
      return v;
    }
    v.status = TestStatus::failed;
    v.points = 0;
    v.message += own_speedup_sentence(m);
    return v;
  }
  if (!m.interference.empty() && fraction < 1) {
    // A busy machine slows the parallel side more than the other: never a silent
    // lower score. Nothing counted; the student re-runs.
    v.status = TestStatus::inconclusive;
    v.points = 0;
    v.message += "; inconclusive: machine busy (" + m.interference +
                 "); nothing is counted against you: close other programs and re-run";
    return v;
  }
  if (m.noisy && fraction < 1) {
    // Too noisy to judge: never fail a student on noise.
    v.status = TestStatus::inconclusive;
    v.points = 0;
    v.message += "; inconclusive: the ratios stayed too spread out to judge; nothing is "
                 "counted against you: re-run on a quieter machine";
    return v;
  }
  v.points = round_points(max_points * fraction);
  v.status = fraction >= 1 ? TestStatus::passed
             : fraction <= 0 ? TestStatus::failed
                             : TestStatus::partial;
  if (!m.interference.empty()) v.message += " (full credit although " + m.interference + ")";
  return v;
}

}  // namespace parlab::grader
