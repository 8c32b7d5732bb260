#pragma once
// `grade LAB --only TEST` (repeatable): a student working on one test grades that test
// alone. The tests named run, with the correctness tests each performance test needs
// (grading/performance_gate: speed only counts for correct code); every other test is
// reported as not graded, so a partial grading never reads as failed work. Pure, so the
// choice is unit-tested alone.
#include <set>
#include <string>
#include <vector>

#include "result/result.hpp"
#include "spec/lab_spec.hpp"

namespace parlab::grader {

struct TestSelection {
  std::vector<std::string> asked;  // as named, in the lab's order, once each
  std::vector<std::string> added;  // correctness tests run because an asked test needs them
  std::set<std::string> runs;      // asked and added

  bool selects(const std::string& test) const { return runs.count(test) > 0; }
};

// Throws UsageError for a name the lab has no test of (listing the lab's tests), or for
// a performance test named where `performance` is off (--no-perf measures none).
TestSelection select_tests(const LabSpec& lab, const std::vector<std::string>& only, bool performance);

// The result's note: which tests were graded, and why the added ones were.
std::string selection_note(const TestSelection& selection);

// A test left out: not graded here, the message saying why.
TestResult not_selected_result(TestResult base);

}  // namespace parlab::grader
