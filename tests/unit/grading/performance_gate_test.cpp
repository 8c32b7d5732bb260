// The policy that decides whether a performance test is measured here: what this
// machine or mode cannot measure is not graded (left out of the total); what the
// submission's failure prevents is skipped (its points lost).
#include <catch2/catch.hpp>

#include "grading/performance_gate.hpp"

using namespace parlab::grader;

namespace {

TestSpec correctness(std::string name, Device device = Device::cpu) {
  TestSpec t;
  t.name = std::move(name);
  t.kind = TestKind::correctness;
  t.device = device;
  return t;
}

TestSpec performance(Device device = Device::cpu, int min_cores = 2) {
  TestSpec t;
  t.name = "speedup";
  t.kind = TestKind::performance;
  t.device = device;
  t.performance = PerformanceSpec{};
  t.performance->min_cores = min_cores;
  return t;
}

std::map<std::string, TestResult> results(std::initializer_list<std::pair<std::string, TestStatus>> s) {
  std::map<std::string, TestResult> done;
  for (const auto& [name, status] : s) done[name].status = status;
  return done;
}

}  // namespace

TEST_CASE("gate: a correct submission on enough cores is measured", "[gate]") {
  LabSpec lab;
  lab.tests = {correctness("a"), performance()};
  GradingConditions c{true, DeviceMode::host, "", 2};
  CHECK_FALSE(performance_gate(lab.tests[1], lab, c, results({{"a", TestStatus::passed}})));
}

TEST_CASE("gate: what this machine or mode cannot measure is not graded here", "[gate]") {
  LabSpec lab;
  lab.tests = {correctness("a"), performance()};
  auto done = results({{"a", TestStatus::passed}});
  SECTION("--no-perf") {
    auto why = performance_gate(lab.tests[1], lab, {false, DeviceMode::host, "", 2}, done);
    REQUIRE(why);
    CHECK(why->status == TestStatus::not_graded);
    CHECK(why->reason.find("--no-perf") != std::string::npos);
  }
  SECTION("no reference of the graded track in this build") {
    auto why = performance_gate(lab.tests[1], lab, {true, DeviceMode::host, "", 2, "no Python reference"}, done);
    REQUIRE(why);
    CHECK(why->status == TestStatus::not_graded);
    CHECK(why->reason == "not graded here: no Python reference");
  }
  SECTION("one core for a parallel test") {
    auto why = performance_gate(lab.tests[1], lab, {true, DeviceMode::host, "", 1}, done);
    REQUIRE(why);
    CHECK(why->status == TestStatus::not_graded);
    CHECK(why->reason.find("needs at least 2 cores, this machine grants 1") != std::string::npos);
  }
  SECTION("a GPU test in the simulator") {
    LabSpec gpu_lab;
    gpu_lab.tests = {correctness("k", Device::gpu), performance(Device::gpu, 1)};
    auto why = performance_gate(gpu_lab.tests[1], gpu_lab,
                                {true, DeviceMode::sim, "no usable CUDA device", 16},
                                results({{"k", TestStatus::passed}}));
    REQUIRE(why);
    CHECK(why->status == TestStatus::not_graded);
    CHECK(why->reason.find("simulation backend") != std::string::npos);
    CHECK(why->reason.find("no usable CUDA device") != std::string::npos);
  }
  SECTION("a CPU test of a GPU lab is still measured in the simulator") {
    CHECK_FALSE(performance_gate(lab.tests[1], lab, {true, DeviceMode::sim, "", 2}, done));
  }
}

TEST_CASE("gate: a failed correctness test skips the speed test and its points are lost",
          "[gate]") {
  LabSpec lab;
  lab.tests = {correctness("a"), correctness("b"), performance()};
  auto why = performance_gate(lab.tests[2], lab, {true, DeviceMode::host, "", 4},
                              results({{"a", TestStatus::passed}, {"b", TestStatus::failed}}));
  REQUIRE(why);
  CHECK(why->status == TestStatus::skipped);
  CHECK(counts_in_graded_total(why->status));
  CHECK(why->reason.find("correctness test 'b' did not pass") != std::string::npos);
}

TEST_CASE("gate: only the named correctness tests gate when `requires` is given", "[gate]") {
  LabSpec lab;
  lab.tests = {correctness("a"), correctness("b"), performance()};
  lab.tests[2].requires_tests = {"a"};
  CHECK_FALSE(performance_gate(lab.tests[2], lab, {true, DeviceMode::host, "", 4},
                               results({{"a", TestStatus::passed}, {"b", TestStatus::failed}})));
}

TEST_CASE("gate: by default only the correctness tests of the measured task gate", "[gate]") {
  LabSpec lab;
  lab.tests = {correctness("scale 1", Device::gpu), correctness("step 1", Device::gpu), performance(Device::gpu, 1)};
  lab.tests[0].task = "matrix_scale";
  lab.tests[1].task = "heat_step";
  lab.tests[2].task = "matrix_scale";
  const GradingConditions gpu{true, DeviceMode::gpu, "", 4};
  // A heat_step failure says nothing about matrix_scale's speed.
  CHECK_FALSE(performance_gate(lab.tests[2], lab, gpu,
                               results({{"scale 1", TestStatus::passed}, {"step 1", TestStatus::failed}})));
  auto why = performance_gate(lab.tests[2], lab, gpu,
                              results({{"scale 1", TestStatus::failed}, {"step 1", TestStatus::passed}}));
  REQUIRE(why);
  CHECK(why->reason.find("'scale 1'") != std::string::npos);
  // A task no correctness test runs: every correctness test of the device gates it.
  lab.tests[2].task = "roundtrip";
  CHECK(performance_gate(lab.tests[2], lab, gpu,
                         results({{"scale 1", TestStatus::passed}, {"step 1", TestStatus::failed}})));
}
