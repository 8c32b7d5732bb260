#pragma once
// One performance test of a grading (DESIGN invariant 2): the baseline and the
// candidate measured side by side (measure/side_by_side), the candidate's outputs on
// that data checked against the reference's, the serial reference timed for
// information, and the verdict (grading/performance_verdict). The session decides
// whether the test runs here at all; this unit measures and judges it.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "grading/lab_runner.hpp"
#include "measure/observed_speed.hpp"
#include "parlab/harness/arrays.hpp"
#include "result/result.hpp"
#include "spec/lab_spec.hpp"

namespace parlab::grader {

struct PerformanceTestSetup {
  const TestSpec* test = nullptr;
  TaskInvocation baseline;
  TaskInvocation candidate;
  std::optional<TaskInvocation> serial;  // the serial reference, timed for information
  // The reference's own run of the candidate's task, where the baseline is another kind
  // of program (a CPU baseline for a GPU task): its untimed time is the start-up every
  // program of the candidate's kind pays (measure/observed_speed.hpp).
  std::optional<TaskInvocation> witness;
  // The reference's own run of the candidate's task with one worker, on a parallel test:
  // it bounds the submission's 1-worker time, which the submission could slow on purpose.
  std::optional<TaskInvocation> reference_one_worker;
  // The reference's own run of the candidate's task with the test's workers, beside its
  // 1-worker run: what the reference's workers gain here, at the same time.
  std::optional<TaskInvocation> reference_parallel;
  // A gain test's reference run (measures_reference_gain): the reference's own candidate
  // task, same params, in every pair.
  std::optional<TaskInvocation> reference_candidate;
  std::string run_slug;                  // names the run folders
  int cores = 1;                         // available to this grading
  // Runs the reference's programs (baseline, serial) under the reference's uid: the
  // submission's uid may not run them (docs/sandbox.md, "Sealed at every level").
  // Null: `runs` runs them too.
  LabRunner* reference_runs = nullptr;
  int machine_cpus = 1;                  // CPUs of the whole machine (/proc/stat counts them)
  Track track = Track::cpp;              // the submission's language (the lessons it is told)
};

// Whether a test's baseline is a different kind of program than its candidate, so the
// baseline's start-up says nothing of the candidate's: a GPU task against a CPU program
// (the CPU reference, or a task the lab runs on the CPU).
bool baseline_of_another_kind(const TestSpec& test, const LabSpec& lab);

// Whether a test is a gain test measured beside the reference's own candidate task: its
// baseline is another of the reference's tasks of the same kind (dynamic against static,
// pinned against pageable). Against another kind, the witness runs give that figure.
bool measures_reference_gain(const TestSpec& test, const LabSpec& lab);

// What the session adds once the candidate's last run is known (GPU phases, roofline).
using DecorateResult =
    std::function<void(TestResult&, const TaskRun& last_candidate, const Measurement&)>;

// Fills `r` (made by the session with name, points and dataset) with the outcome.
// Never throws for anything the submission did.
void run_performance_test(const PerformanceTestSetup& setup, LabRunner& runs,
                          const std::vector<harness::NamedArray>& expected, TestResult& r,
                          const DecorateResult& decorate);

// The submission's own speedup over its 1-worker run, from the wall times the grader
// saw, each less `overhead_s` (a process's untimed cost): the median of each round's
// ratio (the walls at one index were taken side by side; parallel walls of another
// count give their median to every round), with the 95 % interval of that median. A
// round's 1-worker side is the faster of the submission's and the reference's 1-worker
// runs (none: the submission's alone; the submission's none, as when they failed: the
// reference's), so a 1-worker run slowed on purpose buys nothing. Throws
// std::invalid_argument without runs on either side.
struct OwnSpeedup {
  double speedup = 0;
  bool reference_bound = false;  // the reference's 1-worker runs were the faster ones
  double low = 0;                // the median's 95 % interval over the rounds
  double high = 0;
};
OwnSpeedup own_speedup_from_walls(const std::vector<double>& one_worker_wall_s,
                                  const std::vector<double>& parallel_wall_s, double overhead_s,
                                  const std::vector<double>& reference_one_worker_wall_s = {});

// What the grader saw of one run, for the measurement.
TimedSample observed_sample(const TaskRun& run);

}  // namespace parlab::grader
