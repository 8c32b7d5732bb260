#include "grading/performance_gate.hpp"

#include <vector>

namespace parlab::grader {

std::vector<std::string> performance_gates(const TestSpec& t, const LabSpec& lab) {
  if (!t.requires_tests.empty()) return t.requires_tests;
  // Default: the correctness tests of the code measured, its own task on the same
  // device (a heat_step bug says nothing about matrix_scale's speed); every
  // correctness test on that device when none runs the task.
  std::vector<std::string> gates;
  for (const TestSpec& other : lab.tests) {
    if (other.kind == TestKind::correctness && other.device == t.device && other.task == t.task)
      gates.push_back(other.name);
  }
  if (gates.empty()) {
    for (const TestSpec& other : lab.tests) {
      if (other.kind == TestKind::correctness && other.device == t.device) gates.push_back(other.name);
    }
  }
  return gates;
}

std::optional<NotMeasured> performance_gate(const TestSpec& t, const LabSpec& lab,
                                            const GradingConditions& c,
                                            const std::map<std::string, TestResult>& done) {
  const PerformanceSpec& p = *t.performance;
  if (!c.performance) {
    return NotMeasured{TestStatus::not_graded,
                       "not graded here: performance tests disabled (--no-perf)"};
  }
  if (!c.missing_reference.empty() && p.baseline_program == BaselineProgram::reference)
    return NotMeasured{TestStatus::not_graded, "not graded here: " + c.missing_reference};
  // A test with a sim-mode substitute ([tests.sim], grading/sim_counters) is graded by it.
  if (c.mode == DeviceMode::sim && t.device == Device::gpu && !t.sim_check) {
    return NotMeasured{TestStatus::not_graded,
                       "not graded here: the simulation backend checks correctness, not speed (" +
                           c.device_detail +
                           "); grade on a machine with an NVIDIA GPU to measure it"};
  }
  if (c.cores < p.min_cores) {
    return NotMeasured{TestStatus::not_graded,
                       "not graded here: needs at least " + std::to_string(p.min_cores) +
                           " cores, this machine grants " + std::to_string(c.cores) +
                           " (affinity and CPU quota)"};
  }
  for (const std::string& g : performance_gates(t, lab)) {
    auto it = done.find(g);
    if (it != done.end() && it->second.status != TestStatus::passed) {
      return NotMeasured{TestStatus::skipped,
                         "not measured: correctness test '" + g +
                             "' did not pass; speed only counts for correct code"};
    }
  }
  return std::nullopt;
}

}  // namespace parlab::grader
