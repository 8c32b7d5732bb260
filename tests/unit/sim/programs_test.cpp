// End to end: .cu files built through parlab-sim-rewrite (sim/CMakeLists.txt) run and
// pass their own checks.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "sim_test_support.hpp"

using Catch::Matchers::Contains;

TEST_CASE("the vector_add example runs in sim mode", "[sim][programs]") {
  const auto outcome = sim_test::run_program("sim_example_vector_add", "100000");
  INFO(outcome.output);
  CHECK(outcome.exit_code == 0);
  CHECK_THAT(outcome.output, Contains("vector_add: n=100000, 0 wrong"));
  CHECK_THAT(outcome.output, Contains("PASS"));
}

TEST_CASE("launch forms students write compile and run through the rewriter", "[sim][programs]") {
  const auto outcome = sim_test::run_program("sim_fixture_launch_forms");
  INFO(outcome.output);
  CHECK(outcome.exit_code == 0);
  CHECK_THAT(outcome.output, Contains("PASS"));
}

TEST_CASE("a tiled shared-memory SGEMM is exact", "[sim][programs]") {
  const auto outcome = sim_test::run_program("sim_fixture_sgemm_tiled", "128");
  INFO(outcome.output);
  CHECK(outcome.exit_code == 0);
  CHECK_THAT(outcome.output, Contains("PASS"));
}

TEST_CASE("the CUDA that real code uses: cooperative groups, 2D copies, occupancy, "
          "cudaLaunchKernel, carve-out", "[sim][programs]") {
  const auto outcome = sim_test::run_program("sim_fixture_real_code_api");
  INFO(outcome.output);
  CHECK(outcome.exit_code == 0);
  CHECK_THAT(outcome.output, Contains("PASS"));
}

TEST_CASE("this_grid().sync() across blocks: every block runs at once and waits for the "
          "others, a grid too large to be resident, or a block that skips the sync, is "
          "reported", "[sim][programs]") {
  // Four workers, so four blocks (the reported multiprocessor count) sync together even
  // on a two-core machine.
  setenv("PARLAB_SIM_WORKERS", "4", 1);
  const auto sum = sim_test::run_program("sim_fixture_grid_sync", "sum");
  const auto guide = sim_test::run_program("sim_fixture_grid_sync", "guide");
  const auto too_large = sim_test::run_program("sim_fixture_grid_sync", "too_large");
  const auto left = sim_test::run_program("sim_fixture_grid_sync", "left");
  unsetenv("PARLAB_SIM_WORKERS");
  INFO(sum.output);
  CHECK(sum.exit_code == 0);
  CHECK_THAT(sum.output, Contains("4 blocks: PASS"));
  INFO(guide.output);  // occupancy x multiprocessors, as the programming guide sizes it
  CHECK(guide.exit_code == 0);
  CHECK_THAT(guide.output, Contains("4 blocks: PASS"));
  INFO(too_large.output);
  CHECK(too_large.exit_code != 0);
  CHECK_THAT(too_large.output, Contains("needs all 5 blocks of the grid running at once"));
  CHECK_THAT(too_large.output, Contains("grid_sync.cu:"));
  INFO(left.output);
  CHECK(left.exit_code != 0);
  CHECK_THAT(left.output, Contains("a block finished while others wait at a grid-wide sync"));
}

TEST_CASE("the CUDA that public code calls: groups passed as thread_group, tile scans, "
          "function attributes, stream-ordered allocation, prefetch and advice, flags "
          "and limits, a stream joined through an event", "[sim][programs]") {
  const auto outcome = sim_test::run_program("sim_fixture_public_code_api");
  INFO(outcome.output);
  CHECK(outcome.exit_code == 0);
  CHECK_THAT(outcome.output, Contains("PASS"));
  CHECK_THAT(outcome.output, !Contains("FAIL:"));
}
