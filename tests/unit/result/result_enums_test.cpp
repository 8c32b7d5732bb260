#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

#include "result/result.hpp"

using namespace parlab::grader;

TEST_CASE("every run outcome round-trips through its name", "[result]") {
  for (RunOutcome o : {RunOutcome::ok, RunOutcome::nonzero_exit, RunOutcome::crashed,
                       RunOutcome::timeout, RunOutcome::cpu_limit, RunOutcome::memory_limit,
                       RunOutcome::output_limit, RunOutcome::bad_output, RunOutcome::not_run}) {
    CHECK(run_outcome_from_string(to_string(o)) == o);
  }
  CHECK(std::string(to_string(RunOutcome::memory_limit)) == "memory_limit");
}

TEST_CASE("every test status and visibility round-trips through its name", "[result]") {
  for (TestStatus s : {TestStatus::passed, TestStatus::partial, TestStatus::failed,
                       TestStatus::skipped, TestStatus::inconclusive}) {
    CHECK(test_status_from_string(to_string(s)) == s);
  }
  CHECK(visibility_from_string("hidden") == Visibility::hidden);
  CHECK(visibility_from_string("visible") == Visibility::visible);
}

TEST_CASE("an unknown enum name throws naming the bad value and the valid ones", "[result]") {
  try {
    test_status_from_string("almost");
    FAIL("expected std::invalid_argument");
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    CHECK(what.find("'almost'") != std::string::npos);
    CHECK(what.find("inconclusive") != std::string::npos);
  }
  CHECK_THROWS_AS(run_outcome_from_string("Crashed"), std::invalid_argument);
  CHECK_THROWS_AS(visibility_from_string(""), std::invalid_argument);
}

TEST_CASE("the lab vocabulary in the result round-trips through its JSON names", "[result]") {
  for (TestKind k : {TestKind::correctness, TestKind::performance}) {
    CHECK(test_kind_from_string(to_string(k)) == k);
  }
  for (DeviceMode m : {DeviceMode::host, DeviceMode::gpu, DeviceMode::sim, DeviceMode::none}) {
    CHECK(device_mode_from_string(to_string(m)) == m);
  }
  for (RooflineBound b : {RooflineBound::memory, RooflineBound::compute}) {
    CHECK(roofline_bound_from_string(to_string(b)) == b);
  }
  CHECK(std::string(to_string(TestKind::performance)) == "performance");
  CHECK(std::string(to_string(DeviceMode::sim)) == "sim");
  CHECK_THROWS_WITH(test_kind_from_string("speed"),
                    "unknown test kind 'speed' (expected one of: correctness, performance)");
  CHECK_THROWS_AS(roofline_bound_from_string("Memory"), std::invalid_argument);
}
