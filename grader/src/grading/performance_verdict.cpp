#include "grading/performance_verdict.hpp"

#include <algorithm>
#include <cmath>
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

// "(lowered from 1.20x: ...)" where a gain test asked less on this machine.
std::string lowered_text(const Measurement& m, const Thresholds& th) {
  if (!(m.reference_ratio > 0) || !(m.spec_full_at > th.full_at)) return "";
  const std::string task = m.candidate.substr(m.candidate.find(':') + 1);
  return " (lowered from " + format_ratio(m.spec_full_at) + ": here the reference's own " +
         task + " reached " + format_ratio(m.reference_ratio) + " against the same baseline, " +
         format_ratio(m.reference_ratio_low) + " at the low end of its 95% interval)";
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
                m.spread * 100, (format_ratio(th.full_at) + lowered_text(m, th)).c_str(),
                format_ratio(th.zero_at).c_str(),
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

// Below it, one process did nearly all the work, even by the reading a busy machine
// allows: a dynamic queue disturbed by load was measured at 1.37 over two processes.
constexpr double kNearlyAllInOne = 1.2;

// Why a Python program's work was not shared, from what the grader saw of its run: one
// process with several threads is the interpreter's lock; several processes of which
// one did the work, a pool handed the work in one piece. `busy`: the load may have
// skewed the spread, so only a nearly unshared one is explained.
std::string python_lesson(const Measurement& m, const ParallelRule& rule, bool busy = false) {
  if (rule.track != Track::python) return "";
  if (m.candidate_processes <= 1 && m.candidate_threads > 1) {
    return " (one Python process: its threads run Python code one at a time, under the "
           "interpreter's lock (the GIL), so threading, ThreadPoolExecutor and joblib's "
           "threading backend (prefer=\"threads\") do not speed up CPU-bound Python; use "
           "worker processes: multiprocessing.Pool, ProcessPoolExecutor or joblib's default "
           "backend)";
  }
  // Only where the spread was short (not where the work was spread but gained nothing).
  const double spread_below = busy ? kNearlyAllInOne : m.required_cores;
  if (m.candidate_processes > 1 && m.work_spread > 0 && m.work_spread < spread_below) {
    return " (" + std::to_string(m.candidate_processes) +
           " processes ran, but one did most of the work: it was handed out in too few pieces, as "
           "when Pool.map's chunksize is as large as the list; leave chunksize at its default "
           "or give each worker its share)";
  }
  return "";
}

std::string not_parallel_sentence(const Measurement& m, const ParallelRule& rule) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "; not parallel: this test needs the work spread over at least %.1f %s, and "
                "one %s did most of it, so speed earns nothing here",
                m.required_cores, to_string(rule.unit),
                rule.unit == ParallelKind::processes ? "process" : "thread");
  std::string out = buf;
  if (const std::string lesson = python_lesson(m, rule); !lesson.empty()) return out + lesson;
  if (rule.unit == ParallelKind::processes && m.candidate_processes <= 1 && m.candidate_threads > 1) {
    out += " (threads do not count: this lab asks for worker processes, e.g. fork)";
  }
  return out;
}

std::string own_speedup_sentence(const Measurement& m, const ParallelRule& rule) {
  const std::string task = m.candidate.substr(m.candidate.find(':') + 1);
  char buf[640];
  if (m.own_speedup_reference_bound) {
    // The submission's own 1-worker run was slower than the reference's: it counts for
    // no more, or sleeping with one worker would buy the points.
    std::snprintf(buf, sizeof buf,
                  "; not parallel: with 1 worker the reference's task '%s' took %.2fx as long "
                  "as your run with %d (your own 1-worker run was slower and counts for no "
                  "more; this test needs %.2fx)",
                  task.c_str(), m.own_speedup, m.own_speedup_workers, m.required_own_speedup);
  } else {
    std::snprintf(buf, sizeof buf,
                  "; not parallel: with 1 worker your own task '%s' took %.2fx as long as with "
                  "%d (this test needs %.2fx)",
                  task.c_str(), m.own_speedup, m.own_speedup_workers, m.required_own_speedup);
  }
  return std::string(buf) +
         ", so its workers did not share the work; processes or threads that only keep "
         "cores busy do not count, and speed earns nothing here" + python_lesson(m, rule);
}

// What the student reads whatever the verdict: the ratio, what the grader saw of the
// run's parallelism, its speedup over a 1-worker run.
std::string facts_sentence(const Measurement& m, const Thresholds& th, const ParallelRule& rule) {
  std::string out = measured_sentence(m, th);
  if (const std::string seen = parallelism_sentence(m, rule); !seen.empty()) out += "; " + seen;
  if (m.own_speedup > 0 && !own_speedup_missing(m)) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "; %.2fx as fast as %s with 1 worker", m.own_speedup,
                  m.own_speedup_reference_bound ? "the reference's run" : "your own run");
    out += buf;
  }
  return out;
}

double points_at(const VerdictEnd& end, const Thresholds& th, double max_points) {
  return end.parallel_ok() ? round_points(max_points * performance_fraction(end.ratio, th)) : 0;
}

// Why the points could differ, and that nothing is counted against the student.
std::string inconclusive_sentence(const Measurement& m, const VerdictBounds& b,
                                  const ParallelRule& rule) {
  if (m.interference.empty() && !b.measured.own_speedup_ok && own_speedup_unjudgeable(m)) {
    char seen[320];
    std::snprintf(seen, sizeof seen,
                  "; inconclusive: the reference's own speedup over its 1-worker runs was "
                  "%.2fx here, short of the %.2fx this test asks (yours: %.2fx), so it cannot "
                  "be judged on this machine now",
                  m.reference_own_speedup, m.required_own_speedup, m.own_speedup);
    return seen + std::string("; nothing is counted against you: close other programs and "
                              "re-run, on a machine with more free cores if it repeats");
  }
  if (m.interference.empty() && !b.measured.own_speedup_ok) {
    char seen[256];
    std::snprintf(seen, sizeof seen,
                  "; inconclusive: the speedup over a 1-worker run (%.2fx, this test needs "
                  "%.2fx) varied up to %.2fx between its rounds of side-by-side runs, so it "
                  "cannot be judged",
                  m.own_speedup, m.required_own_speedup, m.own_speedup_high);
    return seen + python_lesson(m, rule, true) +
           "; nothing is counted against you: re-run on a quieter machine";
  }
  if (m.interference.empty()) {
    return "; inconclusive: the ratios stayed too spread out to judge; nothing is counted "
           "against you: re-run on a quieter machine";
  }
  const std::string busy = "; inconclusive: machine busy (" + m.interference + ")";
  const std::string rerun = "; nothing is counted against you: close other programs and re-run";
  // What the grader saw of the run's processes still tells a Python program's likely
  // cause, whatever the load.
  if (!b.measured.spread_ok)
    return busy + ", so how the work was shared cannot be judged" + python_lesson(m, rule, true) +
           rerun;
  if (!b.measured.own_speedup_ok) {
    char seen[96];
    std::snprintf(seen, sizeof seen, " (%.2fx, this test needs %.2fx)", m.own_speedup,
                  m.required_own_speedup);
    return busy + ", so the speedup over a 1-worker run" + seen + " cannot be judged" +
           python_lesson(m, rule, true) + rerun;
  }
  return busy + rerun;
}

// Why a noisy or busy measurement is decided all the same.
std::string decided_sentence(const Measurement& m, const VerdictBounds& b, double points) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "; %s, but even the most favourable reading it allows (%s%s) earns %s",
                !m.interference.empty() ? "the machine was busy"
                : m.noisy               ? "the ratios were spread out"
                                        : "the speedup over a 1-worker run varied between its rounds",
                format_ratio(b.best.ratio).c_str(),
                b.best.parallel_ok() ? "" : ", and not parallel even then",
                points > 0 ? "the same points" : "nothing");
  return buf;
}

// The points the measurement earns, with the rule that took them away.
void decide(const Measurement& m, const VerdictBounds& b, const ParallelRule& rule,
            double points, double max_points, PerformanceVerdict& v) {
  v.points = points;
  v.status = points >= max_points ? TestStatus::passed
             : points <= 0        ? TestStatus::failed
                                  : TestStatus::partial;
  if (!b.measured.spread_ok) {
    v.message += not_parallel_sentence(m, rule);
  } else if (!b.measured.own_speedup_ok) {
    v.message += own_speedup_sentence(m, rule);
  }
  if (b.uncertain) v.message += decided_sentence(m, b, points);
}

}  // namespace

PerformanceVerdict performance_verdict(const Measurement& m, const Thresholds& th,
                                       double max_points, const ParallelRule& rule) {
  PerformanceVerdict v;
  v.message = facts_sentence(m, th, rule);
  if (!m.timing_trusted) {
    // A program caught claiming more than it did earns nothing on this test, and the
    // instructor sees both figures.
    v.status = TestStatus::failed;
    v.points = 0;
    v.message += untrusted_timing_sentence(m);
    return v;
  }
  const VerdictBounds b = verdict_bounds(m, rule);
  const double measured = points_at(b.measured, th, max_points);
  if (b.uncertain && measured >= max_points) {
    // Noise or load never makes full credit less: it stands, with the load said.
    v.status = TestStatus::passed;
    v.points = measured;
    if (!m.interference.empty()) v.message += " (full credit although " + m.interference + ")";
    return v;
  }
  const double best = points_at(b.best, th, max_points);
  const double worst = points_at(b.worst, th, max_points);
  if (best != worst) {
    // The points depend on what the noise hid: never a silent lower score.
    v.status = TestStatus::inconclusive;
    v.points = 0;
    v.message += inconclusive_sentence(m, b, rule);
    return v;
  }
  decide(m, b, rule, worst, max_points, v);
  return v;
}

namespace {

// The reference itself did not show the gain the test is about, here and now: short of
// full credit, the points depend on a full_at this machine cannot tell.
void not_judgeable_here(const Measurement& m, PerformanceVerdict& v) {
  // Already inconclusive (a busy machine): its reason stands, one is enough.
  if (v.status == TestStatus::passed || v.status == TestStatus::inconclusive || !m.timing_trusted) {
    return;
  }
  const std::string task = m.candidate.substr(m.candidate.find(':') + 1);
  v.status = TestStatus::inconclusive;
  v.points = 0;
  v.message += "; inconclusive: on this machine, now, the reference's own " + task + " was " +
               format_ratio(m.reference_ratio) + " the speed of " + m.baseline +
               ", too little to show the gain this test is about (it needs the reference at " +
               format_ratio(std::sqrt(m.zero_at * m.full_at)) + " or more); nothing is counted "
               "against you: close other programs and re-run, on a machine with more free "
               "cores if it repeats";
}

}  // namespace

PerformanceVerdict gain_test_verdict(Measurement& m, const Thresholds& spec, double gain_share,
                                     double max_points, const ParallelRule& rule) {
  GainThresholds gain =
      within_reference_gain(spec, m.reference_ratio, m.reference_ratio_low, gain_share);
  if (!gain.judgeable) gain.asked = spec;  // full credit at the lab's own still stands
  m.spec_full_at = spec.full_at;
  m.full_at = gain.asked.full_at;
  m.zero_at = gain.asked.zero_at;
  m.cores = gain.asked.parallelism;
  PerformanceVerdict v = performance_verdict(m, gain.asked, max_points, rule);
  // Decided all the same where no full_at could change the points: at or below zero_at
  // (which never moves), or not parallel, even at the most favourable reading.
  const VerdictEnd best = verdict_bounds(m, rule).best;
  if (!gain.judgeable && best.parallel_ok() && best.ratio > m.zero_at) not_judgeable_here(m, v);
  return v;
}

}  // namespace parlab::grader
