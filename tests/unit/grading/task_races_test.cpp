// A data race seen in any run of a task fails the task's other passed tests: a path the
// kernel takes only on some data (or at random) cannot pass the tests that missed it.
#include <catch2/catch.hpp>

#include "grading/task_races.hpp"

using namespace parlab::grader;

namespace {
TestSpec gpu_test(const std::string& name, const std::string& task) {
  TestSpec t;
  t.name = name;
  t.task = task;
  t.device = Device::gpu;
  return t;
}
TestResult passed(const std::string& name, double points) {
  TestResult r;
  r.name = name;
  r.status = TestStatus::passed;
  r.points = points;
  r.max_points = points;
  r.message = "all outputs match";
  return r;
}
SimFinding race() {
  return {"data_race", "data race on `visited` between kernels.cu:27 and kernels.cu:27",
          "data race on shared array `visited` in kernel vector_add_kernel ..."};
}
}  // namespace

TEST_CASE("a race seen in one test's runs fails the task's other passed tests", "[task_races]") {
  const std::vector<TestSpec> tests{gpu_test("add, n = 1", "vector_add"),
                                    gpu_test("add, n = 100003", "vector_add"),
                                    gpu_test("saxpy, n = 1", "saxpy")};
  std::map<std::string, TestResult> done{{"add, n = 1", passed("add, n = 1", 5)},
                                         {"add, n = 100003", passed("add, n = 100003", 5)},
                                         {"saxpy, n = 1", passed("saxpy, n = 1", 5)}};
  done["add, n = 100003"].status = TestStatus::failed;  // its own race failed it
  done["add, n = 100003"].points = 0;
  TaskRaces races;
  races.note(tests[0], {});
  races.note(tests[1], {SimFinding{"uncoalesced_access", "uncoalesced", "..."}, race()});
  races.note(tests[2], {});
  races.apply(tests, done);
  const TestResult& small = done.at("add, n = 1");
  CHECK(small.status == TestStatus::failed);
  CHECK(small.points == 0);
  CHECK(small.message.find("task 'vector_add' has a data race, seen in test 'add, n = 100003'") !=
        std::string::npos);
  CHECK(small.message.find("between kernels.cu:27 and kernels.cu:27") != std::string::npos);
  CHECK(small.message.find("in kernel vector_add_kernel") != std::string::npos);
  // Another task, and the test that saw the race, keep what they had.
  CHECK(done.at("saxpy, n = 1").status == TestStatus::passed);
  CHECK(done.at("saxpy, n = 1").points == 5);
  CHECK(done.at("add, n = 100003").message == "all outputs match");
}

TEST_CASE("only races spread, only to passed GPU tests", "[task_races]") {
  TestSpec cpu = gpu_test("cpu sum", "sum");
  cpu.device = Device::cpu;
  const std::vector<TestSpec> tests{gpu_test("sum small", "sum"), gpu_test("sum big", "sum"),
                                    gpu_test("sum partial", "sum"), cpu};
  std::map<std::string, TestResult> done{{"sum small", passed("sum small", 4)},
                                         {"sum big", passed("sum big", 4)},
                                         {"sum partial", passed("sum partial", 4)},
                                         {"cpu sum", passed("cpu sum", 4)}};
  done["sum partial"].status = TestStatus::partial;
  done["sum partial"].points = 2;
  TaskRaces races;
  // Findings that are not races say nothing of the other tests.
  races.note(tests[0], {SimFinding{"exited_before_barrier", "early exit", "..."}});
  races.apply(tests, done);
  CHECK(done.at("sum big").status == TestStatus::passed);
  races.note(tests[1], {race()});
  races.apply(tests, done);
  CHECK(done.at("sum small").status == TestStatus::failed);
  CHECK(done.at("sum partial").points == 2);  // not passed: its own verdict stands
  CHECK(done.at("cpu sum").status == TestStatus::passed);  // the host's code, not the kernel's
  CHECK(done.at("sum big").status == TestStatus::passed);  // its own findings decided it
}

TEST_CASE("a race compute-sanitizer's racecheck saw on a GPU spreads the same way, in its words", "[task_races]") {
  const std::vector<TestSpec> tests{gpu_test("tiled 64", "tiled"), gpu_test("tiled 1031", "tiled"),
                                    gpu_test("naive 64", "naive")};
  std::map<std::string, TestResult> done{{"tiled 64", passed("tiled 64", 5)},
                                         {"tiled 1031", passed("tiled 1031", 5)},
                                         {"naive 64", passed("naive 64", 5)}};
  TaskRaces races;
  races.note_race(tests[0], {"compute-sanitizer racecheck",
                             "data race on shared memory in kernel matmul_tiled at matmul.cu:31",
                             "data race on shared memory in kernel matmul_tiled: a write at matmul.cu:31 and a "
                             "read at matmul.cu:36"});
  // A second race of the same task: the first one is named.
  races.note_race(tests[1], {"compute-sanitizer racecheck", "another", "another"});
  races.apply(tests, done);
  const TestResult& big = done.at("tiled 1031");
  CHECK(big.status == TestStatus::failed);
  CHECK(big.points == 0);
  CHECK(big.message.find("seen in test 'tiled 64' (compute-sanitizer racecheck: data race on shared memory") !=
        std::string::npos);
  CHECK(big.message.find("the compute-sanitizer racecheck found:\n  - data race on shared memory") !=
        std::string::npos);
  CHECK(done.at("tiled 64").status == TestStatus::passed);  // where it was seen: its own verdict stands
  CHECK(done.at("naive 64").status == TestStatus::passed);
}
