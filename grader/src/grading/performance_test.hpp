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
  std::string run_slug;                  // names the run folders
  int cores = 1;                         // available to this grading
  // Runs the reference's programs (baseline, serial) under the reference's uid: the
  // submission's uid may not run them (docs/sandbox.md, "Sealed at every level").
  // Null: `runs` runs them too.
  LabRunner* reference_runs = nullptr;
};

// What the session adds once the candidate's last run is known (GPU phases, roofline).
using DecorateResult =
    std::function<void(TestResult&, const TaskRun& last_candidate, const Measurement&)>;

// Fills `r` (made by the session with name, points and dataset) with the outcome.
// Never throws for anything the submission did.
void run_performance_test(const PerformanceTestSetup& setup, LabRunner& runs,
                          const std::vector<harness::NamedArray>& expected, TestResult& r,
                          const DecorateResult& decorate);

// What the grader saw of one run, for the measurement.
TimedSample observed_sample(const TaskRun& run);

}  // namespace parlab::grader
