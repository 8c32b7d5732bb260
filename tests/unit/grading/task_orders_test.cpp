// An answer that changed with the order threads ran in, in one test of a task, fails the
// task's other passed GPU tests: a test whose runs took a harmless order has not shown
// the code right, and its verdict must not depend on the seeds drawn.
#include <catch2/catch.hpp>

#include "grading/task_orders.hpp"

using namespace parlab::grader;

namespace {
TestSpec test_of(const std::string& name, const std::string& task, Device device = Device::gpu) {
  TestSpec t;
  t.name = name;
  t.task = task;
  t.device = device;
  return t;
}
TestResult result(const std::string& name, TestStatus status, double points) {
  TestResult r;
  r.name = name;
  r.status = status;
  r.points = points;
  r.max_points = 5;
  r.message = status == TestStatus::passed ? "all outputs match" : "its own message";
  return r;
}
}  // namespace

TEST_CASE("an order-dependent answer in one test fails the task's other passed GPU tests", "[task_orders]") {
  const std::vector<TestSpec> tests{test_of("sum: one element", "sum"), test_of("sum: prime size", "sum"),
                                    test_of("hidden fresh data: sum", "sum"), test_of("sum on the CPU", "sum", Device::cpu),
                                    test_of("max: prime size", "max_block")};
  std::map<std::string, TestResult> done{
      {"sum: one element", result("sum: one element", TestStatus::passed, 5)},
      {"sum: prime size", result("sum: prime size", TestStatus::failed, 0)},  // the schedule check failed it
      {"hidden fresh data: sum", result("hidden fresh data: sum", TestStatus::passed, 5)},
      {"sum on the CPU", result("sum on the CPU", TestStatus::passed, 5)},
      {"max: prime size", result("max: prime size", TestStatus::passed, 5)}};
  TaskOrders orders;
  orders.note(tests[1]);
  orders.apply(tests, done);
  for (const char* name : {"sum: one element", "hidden fresh data: sum"}) {
    const TestResult& r = done.at(name);
    CHECK(r.status == TestStatus::failed);
    CHECK(r.points == 0);
    CHECK(r.message.find("task 'sum' gave another answer when its blocks and threads ran in another "
                         "order, in test 'sum: prime size'") != std::string::npos);
    CHECK(r.message.find("zeroed inside the kernel by block 0") != std::string::npos);  // the advice
  }
  // The test that showed it keeps its own message; a CPU test and another task keep theirs.
  CHECK(done.at("sum: prime size").message == "its own message");
  CHECK(done.at("sum on the CPU").status == TestStatus::passed);
  CHECK(done.at("max: prime size").status == TestStatus::passed);
  CHECK(done.at("max: prime size").points == 5);
}

TEST_CASE("the first test that showed it is named, and nothing noted changes nothing", "[task_orders]") {
  const std::vector<TestSpec> tests{test_of("a", "sum"), test_of("b", "sum"), test_of("c", "sum")};
  std::map<std::string, TestResult> done{{"a", result("a", TestStatus::failed, 0)},
                                         {"b", result("b", TestStatus::failed, 0)},
                                         {"c", result("c", TestStatus::passed, 5)}};
  std::map<std::string, TestResult> untouched = done;
  TaskOrders none;
  none.apply(tests, untouched);
  CHECK(untouched.at("c").status == TestStatus::passed);
  TaskOrders orders;
  orders.note(tests[0]);
  orders.note(tests[1]);
  orders.apply(tests, done);
  CHECK(done.at("c").message.find("in test 'a'") != std::string::npos);
  CHECK(done.at("b").message == "its own message");  // failed already: left as it was
}
