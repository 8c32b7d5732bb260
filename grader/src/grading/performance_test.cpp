#include "grading/performance_test.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "compare/comparator.hpp"
#include "grading/page_cache_warmup.hpp"
#include "grading/performance_verdict.hpp"
#include "grading/run_feedback.hpp"
#include "measure/other_load.hpp"
#include "measure/own_speedup_runs.hpp"
#include "measure/side_by_side.hpp"
#include "measure/statistics.hpp"
#include "score/scoring.hpp"

namespace parlab::grader {
namespace {

constexpr int kSerialRuns = 3;  // enough for a median shown as information
constexpr int kOwnSerialRuns = 4;  // rounds of 1-worker and parallel runs: each run in each place once

// Runs `inv` once from a warm page cache (the previous run, the student's say, may
// have evicted the dataset to slow the next one down); keeps the run in `last`.
TimedRun timed(LabRunner& runs, const TaskInvocation& inv, const std::string& name, TaskRun& last) {
  return [&runs, &inv, name, &last](std::string& err) -> std::optional<TimedSample> {
    warm_page_cache(inv.dataset_dir);
    last = runs.run(inv, name);
    if (!last.ok()) {
      err = last.message;
      return std::nullopt;
    }
    return observed_sample(last);
  };
}

// The candidate's median time against the serial reference's, for information; 0
// when it cannot be said (a serial run failed).
double serial_speedup(const PerformanceTestSetup& setup, LabRunner& runs, double candidate_s) {
  if (!setup.serial || !(candidate_s > 0)) return 0;
  std::vector<double> serial_s;
  TaskRun last;
  for (int i = 0; i < kSerialRuns; ++i) {
    std::string ignored;
    auto seen = timed(runs, *setup.serial, setup.run_slug + "-serial", last)(ignored);
    if (!seen) return 0;
    serial_s.push_back(seen->reported_s);
  }
  return median(serial_s) / candidate_s;
}

// The submission's own task with one worker against its parallel run, from the wall
// times the grader saw (a timer the submission controls cannot steer it), each less
// the untimed cost of a process of this task, beside the reference's in rounds
// (measure/own_speedup_runs.hpp): a ratio of runs taken minutes apart on a noisy
// machine once let a serial program with a CPU-burning child pass.
OwnSpeedupWalls own_one_worker_runs(const PerformanceTestSetup& setup, LabRunner& runs,
                                    LabRunner& reference_runs, std::vector<TaskRun>& last) {
  TaskInvocation one_worker = setup.candidate;
  one_worker.params.set("workers", "1");
  last.resize(4);
  auto optional_run = [&](const std::optional<TaskInvocation>& inv, const char* slug, TaskRun& kept) {
    return inv ? timed(reference_runs, *inv, setup.run_slug + slug, kept) : TimedRun{};
  };
  OwnSpeedupRunners runners{
      timed(runs, one_worker, setup.run_slug + "-own-serial", last[0]),
      timed(runs, setup.candidate, setup.run_slug + "-own-parallel", last[1]),
      optional_run(setup.reference_one_worker, "-reference-one-worker", last[2]),
      optional_run(setup.reference_parallel, "-reference-parallel", last[3])};
  return own_speedup_walls(runners, kOwnSerialRuns);
}

// Whether the own speedup is asked of this test: a parallel test with workers on 2 or
// more cores, where the spread rule passed and the timing is trusted (on a busy machine
// too: a burner must not pass as "full credit although busy"; performance_verdict).
bool own_speedup_asked(const PerformanceTestSetup& setup, const Measurement& m, int workers) {
  const PerformanceSpec& p = *setup.test->performance;
  return setup.candidate.observe && p.parallel != ParallelKind::none && setup.cores >= 2 &&
         workers > 1 && p.min_own_speedup > 1 && m.timing_trusted &&
         !(m.work_spread > 0 && m.required_cores > 0 && m.work_spread < m.required_cores);
}

// The reference's own runs of the candidate's task with the test's params, as the pairs
// saw them: a gain test's reference runs, or a baseline that is that very task.
const std::vector<double>& reference_parallel_walls(const PerformanceTestSetup& setup,
                                                    const SideBySide& sbs) {
  static const std::vector<double> none;
  if (!sbs.reference_wall_s.empty()) return sbs.reference_wall_s;
  const PerformanceSpec& p = *setup.test->performance;
  const bool same_task = p.baseline_program == BaselineProgram::reference &&
                         p.baseline_task == setup.test->task && p.baseline_params.values().empty();
  return same_task ? sbs.baseline_wall_s : none;
}

// Other programs busy during the rounds: the speedup is judged as on a busy machine
// (the pairs may have been quiet; the rounds' load is its own).
void note_rounds_load(const OwnSpeedupWalls& seen, double allowed_load, Measurement& m) {
  if (!(seen.others_cores > allowed_load) || !m.interference.empty()) return;
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "other programs (or the hypervisor) kept up to %.2f cores busy during the "
                "1-worker comparison",
                seen.others_cores);
  m.interference = buf;
  m.other_cores = seen.others_cores;
}

// Fills the own speedup into `m`; false (and `r` inconclusive) when the reference's
// 1-worker run failed. Without the reference's runs, a failed 1-worker run of the
// submission's leaves it unmeasured.
bool measure_own_speedup(const PerformanceTestSetup& setup, LabRunner& runs,
                         LabRunner& reference_runs, const SideBySide& sbs, int workers,
                         double allowed_load, Measurement& m, TestResult& r) {
  if (!own_speedup_asked(setup, m, workers)) return true;
  m.required_own_speedup = setup.test->performance->min_own_speedup;
  m.own_speedup_workers = std::min(workers, setup.cores);
  std::vector<TaskRun> last;
  const OwnSpeedupWalls seen = own_one_worker_runs(setup, runs, reference_runs, last);
  if (seen.reference_failed) {
    r.status = TestStatus::inconclusive;
    r.outcome = RunOutcome::not_run;
    r.message = "inconclusive: the reference's own run with 1 worker (reference:" +
                setup.test->task + ") failed on this machine (" + seen.error +
                "); nothing is counted against you: re-run the grading, on a quieter "
                "machine if it repeats";
    return false;
  }
  if (seen.own_s.empty() && seen.reference_s.empty()) return true;
  const std::vector<double>& parallel = seen.parallel_s.empty() ? sbs.candidate_wall_s : seen.parallel_s;
  const OwnSpeedup own =
      own_speedup_from_walls(seen.own_s, parallel, sbs.observed.overhead_s, seen.reference_s);
  note_rounds_load(seen, allowed_load, m);
  m.own_speedup = own.speedup;
  m.own_speedup_high = own.high;
  m.own_speedup_reference_bound = own.reference_bound;
  // What the reference's own code gains from its workers here, from the same kinds of
  // runs at the same times: a noisy machine's dip is asked of neither.
  const std::vector<double>& reference_parallel = seen.reference_parallel_s.empty()
                                                      ? reference_parallel_walls(setup, sbs)
                                                      : seen.reference_parallel_s;
  if (!seen.reference_s.empty() && !reference_parallel.empty()) {
    // Asked over the same 1-worker base as the submission's (each round's faster
    // 1-worker run): a base of the reference's runs alone would be, on average, slower
    // than the faster of two, and ask more of the submission than of the reference.
    const double same_base = own_speedup_from_walls(seen.own_s, reference_parallel,
                                                    sbs.observed.overhead_s, seen.reference_s)
                                 .speedup;
    m.required_own_speedup = asked_own_speedup(m.required_own_speedup, same_base,
                                               setup.test->performance->reference_gain_share);
    // Whether the machine lets the reference show it at all: its runs alone, which the
    // submission's fast (or slowed) 1-worker run cannot move.
    m.reference_own_speedup =
        own_speedup_from_walls(seen.reference_s, reference_parallel, sbs.observed.overhead_s).speedup;
  }
  return true;
}

}  // namespace

OwnSpeedup own_speedup_from_walls(const std::vector<double>& one_worker_wall_s,
                                  const std::vector<double>& parallel_wall_s, double overhead_s,
                                  const std::vector<double>& reference_one_worker_wall_s) {
  if ((one_worker_wall_s.empty() && reference_one_worker_wall_s.empty()) ||
      parallel_wall_s.empty()) {
    throw std::invalid_argument("own speedup needs runs on both sides");
  }
  // A process's untimed cost is paid by both runs: left out, or it would dilute the
  // speedup of a short task. Never below a millisecond: a run is never free.
  constexpr double kLeast = 0.001;
  constexpr double kNone = std::numeric_limits<double>::infinity();
  const double overhead = std::max(overhead_s, 0.0);
  const std::size_t rounds = std::max(one_worker_wall_s.size(), reference_one_worker_wall_s.size());
  // Runs of one round were taken side by side: each round gives its own ratio, so a
  // slow minute slows both of its sides. Parallel walls of another count (the pairs',
  // standing in) give their median to every round.
  const bool paired = parallel_wall_s.size() == rounds;
  std::vector<double> ratios;
  for (std::size_t i = 0; i < rounds; ++i) {
    // Serial work the reference does in less time is all a 1-worker run is credited
    // with: sleeping, spinning or failing when given one worker makes it no slower here.
    const double own = i < one_worker_wall_s.size() ? one_worker_wall_s[i] : kNone;
    const double reference = i < reference_one_worker_wall_s.size() ? reference_one_worker_wall_s[i] : kNone;
    const double parallel = paired ? parallel_wall_s[i] : median(parallel_wall_s);
    ratios.push_back(std::max(std::min(own, reference) - overhead, kLeast) /
                     std::max(parallel - overhead, kLeast));
  }
  const double own_median = one_worker_wall_s.empty() ? kNone : median(one_worker_wall_s);
  const bool bound = !reference_one_worker_wall_s.empty() && median(reference_one_worker_wall_s) < own_median;
  const Interval spread = median_interval(ratios);
  return {median(ratios), bound, spread.low, spread.high};
}

bool baseline_of_another_kind(const TestSpec& test, const LabSpec& lab) {
  if (test.device != Device::gpu || !test.performance) return false;
  const PerformanceSpec& p = *test.performance;
  if (p.baseline_program == BaselineProgram::cpu_reference) return true;
  for (const TestSpec& other : lab.tests) {
    if (other.task == p.baseline_task && other.device == Device::cpu) return true;
  }
  return false;
}

bool measures_reference_gain(const TestSpec& test, const LabSpec& lab) {
  if (!test.performance) return false;
  const PerformanceSpec& p = *test.performance;
  return p.baseline_program == BaselineProgram::reference && p.baseline_task != test.task &&
         !baseline_of_another_kind(test, lab);
}

TimedSample observed_sample(const TaskRun& run) {
  TimedSample s{median(run.samples_s), run.run.wall_seconds, run.run.cpu_seconds, run.calls};
  const process::TreeUsage& tree = run.run.tree;
  // Where the samples missed much of the tree's CPU time (workers that lived shorter than
  // the sampling period), the spread says nothing: left unobserved, nothing required.
  constexpr double kMinCoverage = 0.75;
  if (tree.observed && tree.coverage(run.run.cpu_seconds) >= kMinCoverage) {
    s.process_spread = tree.process_spread();
    s.thread_spread = tree.thread_spread();
    s.processes = tree.processes;
    s.threads = tree.threads;
  }
  if (run.run.others_cpu_seconds >= 0 && run.run.wall_seconds > 0) {
    s.others_cores = (run.run.others_cpu_seconds + std::max(run.run.steal_seconds, 0.0)) /
                     run.run.wall_seconds;
  }
  return s;
}

namespace {

// Nothing was measured: the candidate failed (the student's), the student's own baseline
// failed (theirs too), or the grader's baseline or witness failed (inconclusive).
void fail_unmeasured(const SideBySide& sbs, const TestSpec& t, bool baseline_is_student,
                     const TaskRun& last_candidate, const TaskRun& last_baseline, TestResult& r) {
  const PerformanceSpec& p = *t.performance;
  if (sbs.candidate_failed) {
    fail_from_run(r, last_candidate);
  } else if (baseline_is_student && !sbs.witness_failed) {
    // The baseline is the student's own code (e.g. its serial task): its failure is theirs.
    fail_from_run(r, last_baseline);
    r.message = "your " + p.baseline_task + " task (this test's baseline) failed: " + r.message;
  } else {
    // The grader's baseline failed here (e.g. timed out on a loaded machine): nothing
    // was measured, and the student is not failed for it.
    r.status = TestStatus::inconclusive;
    r.outcome = RunOutcome::not_run;
    r.message = "inconclusive: the reference " +
                (sbs.witness_failed ? "program (reference:" + t.task + ")"
                                    : "baseline (" + std::string(to_string(p.baseline_program)) + ":" +
                                          p.baseline_task + ")") +
                " failed on this machine (" + sbs.error +
                "); nothing is counted against you: re-run the grading, on a quieter "
                "machine if it repeats";
  }
}

// Whether the candidate's outputs on the performance dataset are wrong (or unreadable):
// then `r` says so, and the test is failed.
bool wrong_on_performance_data(const TestSpec& t, const std::vector<harness::NamedArray>& expected,
                               const TaskRun& last_candidate, TestResult& r) {
  CompareOutcome cmp;
  try {
    cmp = compare_outputs(expected, LabRunner::outputs(last_candidate), t.compare);
  } catch (const harness::OutputFormatError& e) {
    r.status = TestStatus::failed;
    r.outcome = RunOutcome::bad_output;
    r.message = std::string("unreadable output on the performance dataset: ") + e.what();
    return true;
  }
  if (cmp.ok) return false;
  r.status = TestStatus::failed;
  r.outcome = RunOutcome::ok;
  // Hidden data stays hidden here too: where, not what.
  r.message = t.visibility == Visibility::hidden
                  ? "fast, but wrong on the performance dataset (hidden data" +
                        (cmp.mismatch ? "; first difference in '" + cmp.mismatch->array + "'"
                                      : std::string()) + ")"
                  : "fast, but wrong on the performance dataset: " + cmp.message;
  return true;
}

}  // namespace

void run_performance_test(const PerformanceTestSetup& setup, LabRunner& runs,
                          const std::vector<harness::NamedArray>& expected, TestResult& r,
                          const DecorateResult& decorate) {
  const TestSpec& t = *setup.test;
  const PerformanceSpec& p = *t.performance;
  const bool baseline_is_student = p.baseline_program == BaselineProgram::submission;
  const bool observed = setup.candidate.observe;
  TaskRun last_candidate;
  TaskRun last_baseline;
  TaskRun last_witness;
  const Params& params = setup.candidate.params;
  const int workers = params.has("workers") ? static_cast<int>(params.get_int("workers")) : 0;
  // The reference's programs (baseline, witness, serial) run under the reference's uid.
  LabRunner& reference_runs = setup.reference_runs ? *setup.reference_runs : runs;
  SideBySideExtras extras;
  if (setup.witness) {
    extras.witness = timed(reference_runs, *setup.witness, setup.run_slug + "-witness", last_witness);
  }
  TaskRun last_reference;
  if (setup.reference_candidate) {
    extras.reference_candidate = timed(reference_runs, *setup.reference_candidate,
                                       setup.run_slug + "-reference", last_reference);
  }
  extras.allowed_other_load = allowed_other_load(
      p.max_other_load, cores_used_by_test(workers, setup.cores), setup.machine_cpus);
  extras.earns_nothing_at = effective_thresholds(p, setup.cores, workers).zero_at;
  // The spread rule as the verdict reads it (required_cores below, ParallelRule): only
  // where the grader observes the run and there are cores to spread over.
  if (observed && p.parallel != ParallelKind::none && setup.cores >= 2) extras.spread_required = p.min_spread;
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [t0] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  SideBySide sbs = measure_side_by_side(
      timed(baseline_is_student ? runs : reference_runs, setup.baseline, setup.run_slug + "-baseline", last_baseline),
      timed(runs, setup.candidate, setup.run_slug + "-candidate", last_candidate), p, elapsed,
      extras);
  r.seconds = elapsed();
  if (!sbs.ok) {
    fail_unmeasured(sbs, t, baseline_is_student, last_candidate, last_baseline, r);
    return;
  }
  // Fast only counts when it is also right on this data.
  if (wrong_on_performance_data(t, expected, last_candidate, r)) return;

  Measurement m = sbs.measurement;
  m.baseline = std::string(to_string(p.baseline_program)) + ":" + p.baseline_task;
  m.candidate = "submission:" + t.task;
  const Thresholds spec_th = effective_thresholds(p, setup.cores, workers);
  m.full_at = spec_th.full_at;
  m.zero_at = spec_th.zero_at;
  m.cores = spec_th.parallelism;
  // A parallel test needs the work spread; with a single core nothing can be asked.
  if (p.parallel != ParallelKind::none && setup.cores >= 2) m.required_cores = p.min_spread;
  m.serial_speedup = serial_speedup(setup, reference_runs, m.candidate_median_s);
  // Useful parallel work, not only busy cores: a 1-worker run must be slower.
  if (!measure_own_speedup(setup, runs, reference_runs, sbs, workers, extras.allowed_other_load, m, r))
    return;
  r.outcome = RunOutcome::ok;
  if (decorate) decorate(r, last_candidate, m);
  const ParallelRule rule{observed ? p.parallel : ParallelKind::none, observed ? setup.cores : 0,
                          cores_used_by_test(workers, setup.cores), setup.track};
  const PerformanceVerdict verdict =
      gain_test_verdict(m, spec_th, p.reference_gain_share, t.points, rule);
  r.status = verdict.status;
  r.points = verdict.points;
  r.message = verdict.message;
  if (m.serial_speedup > 0 && m.interference.empty()) {
    r.message += "; " + format_ratio(m.serial_speedup) + " the speed of the serial reference " +
                 "(information)";
  }
  r.measurement = m;
}

}  // namespace parlab::grader
