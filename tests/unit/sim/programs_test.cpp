// End to end: .cu files built through parlab-sim-rewrite (sim/CMakeLists.txt) run and
// pass their own checks.
#include <catch2/catch.hpp>

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
