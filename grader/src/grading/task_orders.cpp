#include "grading/task_orders.hpp"

#include "grading/schedule_check.hpp"

namespace parlab::grader {

void TaskOrders::note(const TestSpec& t) { first_by_task_.emplace(t.task, t.name); }  // the first stays

void TaskOrders::apply(const std::vector<TestSpec>& tests, std::map<std::string, TestResult>& done) const {
  for (const TestSpec& t : tests) {
    const auto seen = first_by_task_.find(t.task);
    const auto result = done.find(t.name);
    if (t.device != Device::gpu || seen == first_by_task_.end() || result == done.end()) continue;
    TestResult& r = result->second;
    if (r.status != TestStatus::passed || seen->second == t.name) continue;
    r.status = TestStatus::failed;
    r.points = 0;
    r.mismatch.reset();
    r.message = "right answer here, but task '" + t.task + "' gave another answer when its "
                "blocks and threads ran in another order, in test '" + seen->second +
                "': every test of a task runs the same code, and a GPU promises no order, so "
                "any run may compute another answer. " + order_dependence_advice();
  }
}

}  // namespace parlab::grader
