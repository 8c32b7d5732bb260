#include <catch2/catch.hpp>
#include <stdexcept>

#include "measure/other_load.hpp"
#include "measure/side_by_side.hpp"

using namespace parlab::grader;

namespace {
constexpr double kLabDefault = 0.35;  // PerformanceSpec::max_other_load
constexpr double kOneBusyCore = 0.98; // measured: one unrelated busy process
}  // namespace

TEST_CASE("other load: on 2 cores one busy core is detected", "[load]") {
  // A parallel test on both cores: the allowance is what it always was.
  CHECK(allowed_other_load(kLabDefault, 2, 2) == Approx(0.35));
  CHECK(kOneBusyCore > allowed_other_load(kLabDefault, 2, 2));
  // A serial test leaves one core idle, but load there still shares memory and caches.
  CHECK(kOneBusyCore > allowed_other_load(kLabDefault, 1, 2));
}

TEST_CASE("other load: on 16 and 64 cores one busy core leaves the verdict decisive",
          "[load]") {
  for (int cpus : {16, 64}) {
    INFO(cpus << " CPUs");
    // Every core in use (workers = "cores"), a few workers, a serial task.
    for (int used : {cpus, 4, 2, 1}) {
      INFO(used << " used");
      CHECK(kOneBusyCore < allowed_other_load(kLabDefault, used, cpus));
    }
    // A fifth of the test's own cores busy elsewhere is still too much.
    CHECK(cpus / 5.0 > allowed_other_load(kLabDefault, cpus, cpus));
  }
  CHECK(allowed_other_load(kLabDefault, 16, 16) == Approx(2.8));
  CHECK(allowed_other_load(kLabDefault, 64, 64) == Approx(11.2));
  // Half the machine busy beside a test that uses the other half: disturbed.
  CHECK(32.0 > allowed_other_load(kLabDefault, 32, 64));
}

TEST_CASE("other load: the cores a test uses", "[load]") {
  CHECK(cores_used_by_test(0, 16) == 1);    // a serial task
  CHECK(cores_used_by_test(16, 2) == 2);    // 16 workers on 2 cores
  CHECK(cores_used_by_test(3, 16) == 3);
  CHECK(cores_used_by_test(4, 0) == 1);
  // More cores used than the machine has (an odd affinity report): the machine's.
  CHECK(allowed_other_load(kLabDefault, 8, 2) == Approx(0.35));
}

TEST_CASE("other load: bad input is named", "[load]") {
  CHECK_THROWS_WITH(allowed_other_load(0, 2, 2), Catch::Contains("max_other_load"));
  CHECK_THROWS_WITH(allowed_other_load(0.35, 0, 2), Catch::Contains("core counts"));
  CHECK_THROWS_WITH(allowed_other_load(0.35, 2, -1), Catch::Contains("core counts"));
}

TEST_CASE("other load: the pair rule uses the scaled allowance", "[measure][load]") {
  PerformanceSpec p;
  p.warmup_pairs = 0;
  p.min_pairs = 3;
  // One busy core on a 16-core host during every pair.
  auto run = [](double reported) {
    return [reported](std::string&) -> std::optional<TimedSample> {
      TimedSample s{reported, reported + 0.01, reported, 1};
      s.others_cores = kOneBusyCore;
      return s;
    };
  };
  SideBySide absolute = measure_side_by_side(run(1.0), run(2.0), p, [] { return 0.0; });
  CHECK(absolute.disturbed);  // the old absolute 0.35: inconclusive on 16 cores
  SideBySideExtras extras;
  extras.allowed_other_load = allowed_other_load(p.max_other_load, 16, 16);
  SideBySide scaled = measure_side_by_side(run(1.0), run(2.0), p, [] { return 0.0; }, extras);
  CHECK_FALSE(scaled.disturbed);
  CHECK(scaled.disturbed_pairs == 0);
  CHECK(scaled.measurement.median_ratio == Approx(0.5));
}
