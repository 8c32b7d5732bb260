// Sim mode's order check: a passed GPU test whose answer changes in a re-run with another
// seed for the threads' order fails, with the reason and both seeds; nothing else changes.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <set>
#include <string>

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

TEST_CASE("schedule check: the same answer in another order keeps the points", "[schedule]") {
  TestResult r = passed_test();
  CHECK_FALSE(apply_schedule_check(r, "00000000000000aa", {true, "", "00000000000000bb"}, false));
  CHECK(r.status == TestStatus::passed);
  CHECK(r.points == 10);
  CHECK(r.message == "all outputs match");
}

TEST_CASE("schedule check: another answer in another order fails the test and says why",
          "[schedule]") {
  TestResult r = passed_test();
  CHECK(apply_schedule_check(r, "00000000000000aa", {false, "bins[3]: expected 7, got 6", "00000000000000bb"}, false));
  CHECK(r.status == TestStatus::failed);
  CHECK(r.points == 0);
  CHECK(r.message.find("depends on the order threads run in") != std::string::npos);
  // The block-order cause too: a value one block sets for the others.
  CHECK(r.message.find("the order blocks run in is not fixed") != std::string::npos);
  CHECK(r.message.find("__syncthreads()") != std::string::npos);
  CHECK(r.message.find("bins[3]: expected 7, got 6") != std::string::npos);
  CHECK(r.message.find("seed 00000000000000aa right, seed 00000000000000bb wrong") != std::string::npos);
}

TEST_CASE("schedule check: hidden data stays hidden", "[schedule]") {
  TestResult r = passed_test();
  apply_schedule_check(r, "00000000000000aa", {false, "bins[3]: expected 7, got 6", "00000000000000bb"}, true);
  CHECK(r.status == TestStatus::failed);
  CHECK(r.message.find("expected 7") == std::string::npos);
  CHECK(r.message.find("hidden data") != std::string::npos);
}

TEST_CASE("schedule check: a test that already failed is left as it is", "[schedule]") {
  TestResult r = passed_test();
  r.status = TestStatus::failed;
  r.points = 0;
  r.message = "a data race";
  CHECK_FALSE(apply_schedule_check(r, "00000000000000aa", {false, "anything", "00000000000000bb"}, false));
  CHECK(r.message == "a data race");
}

TEST_CASE("schedule check: every run gets a fresh seed, every re-run its own folder",
          "[schedule]") {
  std::set<std::string> seeds;
  for (int i = 0; i < 16; ++i) {
    const std::string seed = fresh_sim_seed();
    CHECK(seed.size() == 16);
    CHECK(seed.find_first_not_of("0123456789abcdef") == std::string::npos);
    seeds.insert(seed);
  }
  CHECK(seeds.size() == 16);
  CHECK(reordered_run_name("histogram", 1) != "histogram");
  CHECK(reordered_run_name("histogram", 1) != reordered_run_name("histogram", 2));
}

TEST_CASE("schedule check: two re-runs unless the grader's environment asks otherwise",
          "[schedule]") {
  unsetenv("PARLAB_SIM_ORDER_RERUNS");
  CHECK(order_reruns() == 2);
  setenv("PARLAB_SIM_ORDER_RERUNS", "5", 1);
  CHECK(order_reruns() == 5);
  setenv("PARLAB_SIM_ORDER_RERUNS", "lots", 1);
  CHECK_THROWS_WITH(order_reruns(), Catch::Contains("PARLAB_SIM_ORDER_RERUNS must be a number from 0 to 10, not 'lots'"));
  unsetenv("PARLAB_SIM_ORDER_RERUNS");
}

TEST_CASE("schedule check: the rounding band is 100 times the tolerance, exact arrays exact", "[schedule]") {
  ComparatorSpec spec;
  spec.rtol = 2e-5;
  spec.atol = 1e-7;
  spec.max_ulp = 4;
  spec.exact_arrays = {"bins"};
  const ComparatorSpec band = rounding_band(spec);
  CHECK(band.rtol == Approx(2e-3));
  CHECK(band.atol == Approx(1e-5));
  CHECK(band.max_ulp == 400);
  CHECK(band.kind == spec.kind);
  CHECK(band.exact_arrays == spec.exact_arrays);
}
