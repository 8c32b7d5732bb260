#pragma once
// Whether a performance test is measured in this grading, and if not, why and with
// which status (docs/scoring.md, "Statuses"): what this machine or mode cannot measure
// is not graded here (left out of the graded total); what the submission's own failure
// prevents is skipped (its points lost). Pure, so the policy is unit-tested alone.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "grading/device_choice.hpp"
#include "result/result.hpp"
#include "spec/lab_spec.hpp"

namespace parlab::grader {

struct GradingConditions {
  bool performance = true;      // false: --no-perf
  DeviceMode mode = DeviceMode::host;
  std::string device_detail;    // why this device mode, for the message
  int cores = 1;                // available to the grading (affinity and quota)
  // Why this build has no reference program of the graded track to measure against
  // (a student kit whose Python reference is bytecode of another Python); "" when it has.
  std::string missing_reference;
};

struct NotMeasured {
  TestStatus status = TestStatus::not_graded;  // not_graded or skipped
  std::string reason;
};

// The correctness tests whose passing a performance test needs: its `requires`, else
// the correctness tests of its task on its device, else every correctness test there.
std::vector<std::string> performance_gates(const TestSpec& test, const LabSpec& lab);

// `done`: the results so far (the correctness tests run first).
std::optional<NotMeasured> performance_gate(const TestSpec& test, const LabSpec& lab,
                                            const GradingConditions& conditions,
                                            const std::map<std::string, TestResult>& done);

}  // namespace parlab::grader
