// Useful parallel work: a parallel test also asks for a speedup over the
// submission's own 1-worker run, which a serial program with a CPU burner cannot show.
#include <catch2/catch.hpp>
#include <stdexcept>

#include "grading/performance_test.hpp"
#include "grading/performance_verdict.hpp"

using namespace parlab::grader;

namespace {
// A parallel test's measurement on 2 cores whose work spread passed (1.99: a burner
// keeps the second core as busy as the first).
Measurement spread_over_two(double own_speedup) {
  Measurement m;
  m.baseline = "reference:parallel_dynamic";
  m.candidate = "submission:parallel_dynamic";
  m.ratios = {1.0, 1.0, 1.0};
  m.reported_ratio = 1.0;
  m.median_ratio = 1.0;
  m.observed_cap = 1.1;
  m.work_spread = 1.99;
  m.candidate_processes = 2;
  m.candidate_threads = 2;
  m.required_cores = 1.5;
  m.required_own_speedup = 1.25;
  m.own_speedup_workers = 2;
  m.own_speedup = own_speedup;
  return m;
}
Thresholds same_shape() { return Thresholds{0.8, 0.4, 0}; }
}  // namespace

TEST_CASE("own speedup: from the wall times, less a process's untimed cost", "[own_speedup]") {
  // 2.05 s with 1 worker, 1.05 s with 2, 50 ms of start-up and I/O each: 2x.
  CHECK(own_speedup_from_walls({2.05, 2.06, 2.04}, {1.05, 1.04, 1.06}, 0.05).speedup == Approx(2.0));
  // A burner: as long with 1 worker as with 2.
  CHECK(own_speedup_from_walls({1.05}, {1.06}, 0.05).speedup == Approx(1.0 / 1.01));
  // An overhead larger than a run never gives a zero or negative time.
  CHECK(own_speedup_from_walls({0.2}, {0.1}, 5.0).speedup == Approx(1.0));
  CHECK_THROWS_AS(own_speedup_from_walls({}, {1.0}, 0), std::invalid_argument);
}

TEST_CASE("own speedup: a 1-worker run slowed on purpose buys nothing", "[own_speedup]") {
  // Serial parsing plus a burner (2.05 s either way), sleeping 3 s more when given one
  // worker; the reference's 1-worker run takes 2.05 s side by side.
  const OwnSpeedup sandbag =
      own_speedup_from_walls({5.05, 5.06, 5.04}, {2.05, 2.06, 2.04}, 0.05, {2.05, 2.04, 2.07});
  CHECK(sandbag.reference_bound);
  CHECK(sandbag.speedup == Approx(1.0));
  Measurement m = spread_over_two(sandbag.speedup);
  m.own_speedup_reference_bound = sandbag.reference_bound;
  PerformanceVerdict v = performance_verdict(m, same_shape(), 25, {ParallelKind::processes, 2});
  CHECK(v.status == TestStatus::failed);
  CHECK(v.points == 0);
  CHECK(v.message.find("not parallel: with 1 worker the reference's task 'parallel_dynamic' took "
                       "1.00x as long as your run with 2") != std::string::npos);
}

TEST_CASE("own speedup: a 1-worker run that fails on purpose buys nothing either",
          "[own_speedup]") {
  const OwnSpeedup failed = own_speedup_from_walls({}, {2.05, 2.05}, 0.05, {2.05, 2.04, 2.07});
  CHECK(failed.reference_bound);
  CHECK(failed.speedup == Approx(1.0));
  CHECK_THROWS_AS(own_speedup_from_walls({}, {2.05}, 0.05, {}), std::invalid_argument);
}

TEST_CASE("own speedup: honest parallel code with a slower serial still passes",
          "[own_speedup]") {
  // Serial code 1.3x slower than the reference's (2.65 s against 2.05 s), parallel over
  // 2 workers at 1.9x its own serial time: 1.48x faster than the reference's serial run
  // (the test needs 1.25x).
  const OwnSpeedup slower =
      own_speedup_from_walls({2.65, 2.66, 2.64}, {1.40, 1.40, 1.41}, 0.05, {2.05, 2.04, 2.06});
  CHECK(slower.reference_bound);
  // Each round's ratio: 2.0 / 1.35, 1.99 / 1.35, 2.01 / 1.36; their median.
  CHECK(slower.speedup == Approx(2.01 / 1.36));
  PerformanceVerdict v = performance_verdict(spread_over_two(slower.speedup), same_shape(), 25,
                                             {ParallelKind::processes, 2});
  CHECK(v.status == TestStatus::passed);
  CHECK(v.points == 25);
  // Faster serial code than the reference's: its own run is the base, as before.
  const OwnSpeedup faster = own_speedup_from_walls({1.55}, {0.80}, 0.05, {2.05});
  CHECK_FALSE(faster.reference_bound);
  CHECK(faster.speedup == Approx(2.0));
}

TEST_CASE("own speedup: each round's runs are compared with each other, not across rounds",
          "[own_speedup]") {
  // The machine slowed down in the second round: both of its runs took 3x as long. Medians
  // of each side would pair round 1's 1-worker run with round 2's parallel one.
  const OwnSpeedup rounds = own_speedup_from_walls({2.05, 6.05, 2.05}, {1.05, 3.05, 1.05}, 0.05);
  CHECK(rounds.speedup == Approx(2.0));
  CHECK(rounds.low == Approx(2.0));
  CHECK(rounds.high == Approx(2.0));
  // Rounds that disagree: the interval says how far (under 6 rounds, the lowest to the
  // highest).
  const OwnSpeedup varied = own_speedup_from_walls({1.25, 1.45, 1.35, 1.55}, {1.05, 1.05, 1.05, 1.05}, 0.05);
  CHECK(varied.low == Approx(1.2));
  CHECK(varied.high == Approx(1.5));
}

TEST_CASE("own speedup: rounds that vary across the bar make the test inconclusive, not failed",
          "[verdict][parallel][own_speedup]") {
  // The reference itself, graded as a submission on a noisy machine: 1.22x at the median,
  // 1.40x in its best round, the bar at 1.25x.
  Measurement m = spread_over_two(1.22);
  m.own_speedup_high = 1.40;
  PerformanceVerdict v = performance_verdict(m, same_shape(), 25, {ParallelKind::processes, 2});
  CHECK(v.status == TestStatus::inconclusive);
  CHECK(v.points == 0);
  CHECK(v.message.find("inconclusive: the speedup over a 1-worker run (1.22x, this test needs "
                       "1.25x) varied up to 1.40x between its rounds") != std::string::npos);
  CHECK(v.message.find("nothing is counted against you") != std::string::npos);
  // A burner whose best round stays short of the bar is decided: it fails.
  Measurement burner = spread_over_two(1.01);
  burner.own_speedup_high = 1.10;
  PerformanceVerdict failed = performance_verdict(burner, same_shape(), 25, {ParallelKind::processes, 2});
  CHECK(failed.status == TestStatus::failed);
  CHECK(failed.message.find("not parallel: with 1 worker your own task") != std::string::npos);
  // Rounds past the bar at the median need no interval.
  Measurement honest = spread_over_two(1.6);
  honest.own_speedup_high = 1.9;
  CHECK(performance_verdict(honest, same_shape(), 25, {ParallelKind::processes, 2}).status ==
        TestStatus::passed);
}

TEST_CASE("own speedup: where the reference's own falls short of the bar, nobody's is judged",
          "[verdict][parallel][own_speedup]") {
  // A machine whose second core gives little: the reference's own parallel runs were
  // 1.05x its 1-worker runs, the bar at its floor of 1.118x.
  Measurement m = spread_over_two(1.04);
  m.own_speedup_high = 1.06;
  m.required_own_speedup = 1.118;
  m.reference_own_speedup = 1.05;
  PerformanceVerdict v = performance_verdict(m, same_shape(), 25, {ParallelKind::processes, 2});
  CHECK(v.status == TestStatus::inconclusive);
  CHECK(v.points == 0);
  CHECK(v.message.find("inconclusive: the reference's own speedup over its 1-worker runs "
                       "was 1.05x here, short of the 1.12x this test asks (yours: 1.04x)") !=
        std::string::npos);
  // Where the reference's reaches the bar, a burner's shortfall is decided.
  m.reference_own_speedup = 1.5;
  CHECK(performance_verdict(m, same_shape(), 25, {ParallelKind::processes, 2}).status ==
        TestStatus::failed);
}

TEST_CASE("own speedup: a burner earns nothing on a parallel test, and is told why",
          "[verdict][parallel][own_speedup]") {
  PerformanceVerdict v =
      performance_verdict(spread_over_two(1.01), same_shape(), 25, {ParallelKind::processes, 2});
  CHECK(v.status == TestStatus::failed);
  CHECK(v.points == 0);
  CHECK(v.message.find("not parallel: with 1 worker your own task 'parallel_dynamic' took "
                       "1.01x as long as with 2 (this test needs 1.25x)") != std::string::npos);
}

TEST_CASE("own speedup: Python threads that did not share the work are told the GIL",
          "[verdict][parallel][own_speedup]") {
  // A lab counting threads: three threads kept busy in turn spread the work, but one
  // worker was as fast as two.
  Measurement m = spread_over_two(1.01);
  m.candidate_processes = 1;
  m.candidate_threads = 3;
  PerformanceVerdict v =
      performance_verdict(m, same_shape(), 25, {ParallelKind::threads, 2, 2, Track::python});
  CHECK(v.points == 0);
  CHECK(v.message.find("did not share the work") != std::string::npos);
  CHECK(v.message.find("(the GIL)") != std::string::npos);
  // Worker processes that spread the work and still gained nothing are not told of
  // chunks: their spread was fine.
  const PerformanceVerdict spread = performance_verdict(
      spread_over_two(1.01), same_shape(), 25, {ParallelKind::processes, 2, 2, Track::python});
  CHECK(spread.points == 0);
  CHECK(spread.message.find("chunksize") == std::string::npos);
}

TEST_CASE("own speedup: real parallel work keeps its points", "[verdict][parallel][own_speedup]") {
  PerformanceVerdict v =
      performance_verdict(spread_over_two(1.85), same_shape(), 25, {ParallelKind::processes, 2});
  CHECK(v.status == TestStatus::passed);
  CHECK(v.points == 25);
  CHECK(v.message.find("not parallel") == std::string::npos);
  CHECK(v.message.find("1.85x as fast as your own run with 1 worker") != std::string::npos);
}

TEST_CASE("own speedup: on a busy machine it is inconclusive, never failed",
          "[verdict][parallel][own_speedup]") {
  Measurement m = spread_over_two(1.01);
  m.interference = "other programs kept 0.98 cores busy";
  m.other_cores = 0.98;
  PerformanceVerdict v = performance_verdict(m, same_shape(), 25, {ParallelKind::processes, 2});
  CHECK(v.status == TestStatus::inconclusive);
  CHECK(v.points == 0);
  CHECK(v.message.find("the speedup over a 1-worker run (1.01x, this test needs 1.25x) cannot "
                       "be judged") != std::string::npos);
}

TEST_CASE("own speedup: not measured or not required, nothing is asked",
          "[verdict][parallel][own_speedup]") {
  Measurement unmeasured = spread_over_two(0);
  CHECK(performance_verdict(unmeasured, same_shape(), 25, {ParallelKind::processes, 2}).points == 25);
  Measurement not_required = spread_over_two(1.01);
  not_required.required_own_speedup = 0;
  CHECK(performance_verdict(not_required, same_shape(), 25, {ParallelKind::processes, 2}).points == 25);
  // A test without a parallel rule never asks for it.
  CHECK(performance_verdict(spread_over_two(1.01), same_shape(), 25, {}).points == 25);
}
