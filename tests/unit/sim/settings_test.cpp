// The simulator's settings reach the runtime before any code of the submission runs and
// are gone after (config/runtime_settings): the submission's constructors and main see
// none of them, in getenv or /proc/self/environ, and the race check still runs.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>

#include "sim_test_support.hpp"

using Catch::Matchers::Contains;

TEST_CASE("the submission's code never sees the simulator's settings", "[sim][settings]") {
  setenv("PARLAB_SIM_RACE_CHECK", "1", 1);
  setenv("PARLAB_SIM_COUNTERS", "1", 1);
  setenv("PARLAB_SIM_SEED", "5eed5eed", 1);
  const auto outcome = sim_test::run_program("sim_fixture_race_settings_probe");
  unsetenv("PARLAB_SIM_RACE_CHECK");
  unsetenv("PARLAB_SIM_COUNTERS");
  unsetenv("PARLAB_SIM_SEED");
  INFO(outcome.output);
  CHECK(outcome.exit_code == 0);
  for (const char* when : {"constructor", "main"}) {
    const std::string w = when;
    CHECK_THAT(outcome.output, Contains(w + ": getenv(PARLAB_SIM_RACE_CHECK) = (unset)"));
    CHECK_THAT(outcome.output, Contains(w + ": getenv(PARLAB_SIM_SEED) = (unset)"));
    CHECK_THAT(outcome.output, Contains(w + ": getenv(PARLAB_SIM_COUNTERS) = (unset)"));
    CHECK_THAT(outcome.output, Contains(w + ": /proc/self/environ hides PARLAB_SIM_"));
    CHECK_THAT(outcome.output, Contains(w + ": /proc/self/environ hides the seed's value"));
  }
  // Read before they were removed: the race check ran.
  CHECK_THAT(outcome.output, Contains("parlab-sim: warning: data race on "));
}
