// Sim mode's schedule-perturbation rule: a passed GPU test whose answer changes when the
// threads run in reverse order fails, with the reason; nothing else changes.
#include <catch2/catch.hpp>

#include "grading/schedule_check.hpp"

using namespace parlab::grader;

namespace {

TestResult passed_test() {
  TestResult r;
  r.name = "histogram";
  r.status = TestStatus::passed;
  r.points = 10;
  r.max_points = 10;
  r.message = "all outputs match";
  return r;
}

}  // namespace

TEST_CASE("schedule check: the same answer in reverse order keeps the points", "[schedule]") {
  TestResult r = passed_test();
  apply_schedule_check(r, {true, ""}, false);
  CHECK(r.status == TestStatus::passed);
  CHECK(r.points == 10);
  CHECK(r.message == "all outputs match");
}

TEST_CASE("schedule check: another answer in reverse order fails the test and says why",
          "[schedule]") {
  TestResult r = passed_test();
  apply_schedule_check(r, {false, "bins[3]: expected 7, got 6"}, false);
  CHECK(r.status == TestStatus::failed);
  CHECK(r.points == 0);
  CHECK(r.message.find("depends on the order threads run in") != std::string::npos);
  CHECK(r.message.find("__syncthreads()") != std::string::npos);
  CHECK(r.message.find("bins[3]: expected 7, got 6") != std::string::npos);
}

TEST_CASE("schedule check: hidden data stays hidden", "[schedule]") {
  TestResult r = passed_test();
  apply_schedule_check(r, {false, "bins[3]: expected 7, got 6"}, true);
  CHECK(r.status == TestStatus::failed);
  CHECK(r.message.find("expected 7") == std::string::npos);
  CHECK(r.message.find("hidden data") != std::string::npos);
}

TEST_CASE("schedule check: a test that already failed is left as it is", "[schedule]") {
  TestResult r = passed_test();
  r.status = TestStatus::failed;
  r.points = 0;
  r.message = "a data race";
  apply_schedule_check(r, {false, "anything"}, false);
  CHECK(r.message == "a data race");
}

TEST_CASE("schedule check: the re-run reverses the order and skips the costly checks",
          "[schedule]") {
  const auto env = reversed_schedule_environment();
  CHECK(env.at("PARLAB_SIM_SCHEDULE") == "reverse");
  CHECK(env.at("PARLAB_SIM_RACE_CHECK") == "0");
  CHECK(env.at("PARLAB_SIM_COUNTERS") == "0");
  CHECK(reversed_run_name("histogram") != "histogram");
}
