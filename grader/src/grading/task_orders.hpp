#pragma once
// An answer that changed with the order threads ran in, in any test of a task, fails the
// task's other passed tests (docs/simulation.md, "A race in one run is the task's"): as
// with a data race, every test of a task runs the same code, and a GPU promises no order,
// so a test whose runs happened to take a harmless order (few blocks, a lucky seed) has
// not shown the code right. Without it a test's verdict would depend on the seeds drawn:
// the same submission graded twice could pass a test once and fail it once. Only an
// answer past the rounding band spreads (grading/schedule_check, rounding_band): a float
// sum whose atomics add in another order differs by rounding on a GPU too, and fails only
// the test whose tolerance it crossed. Pure: sim mode notes each test whose re-run in
// another order changed its answer that way, and applies them once all tests ran.
#include <map>
#include <string>
#include <vector>

#include "result/result.hpp"
#include "spec/lab_spec.hpp"

namespace parlab::grader {

class TaskOrders {
 public:
  // Test `t`'s answer changed in another order (grading/schedule_check): its task keeps
  // the first such test.
  void note(const TestSpec& t);
  // Every other passed GPU test of such a task: failed, naming the test that showed it.
  void apply(const std::vector<TestSpec>& tests, std::map<std::string, TestResult>& done) const;

 private:
  std::map<std::string, std::string> first_by_task_;  // task -> the test that showed it
};

}  // namespace parlab::grader
