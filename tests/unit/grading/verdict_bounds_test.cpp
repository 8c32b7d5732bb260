// What a noisy or disturbed measurement allows at either end (docs/scoring.md, "Decided
// where the points cannot differ").
#include <catch2/catch.hpp>

#include "grading/verdict_bounds.hpp"

using namespace parlab::grader;

namespace {
Measurement two_workers(double median, double low, double high) {
  Measurement m;
  m.ratios = {low, median, high};
  m.median_ratio = median;
  m.ratio_low = low;
  m.ratio_high = high;
  m.work_spread = 1.9;
  m.required_cores = 1.5;
  return m;
}
ParallelRule on_two_cores() { return {ParallelKind::processes, 2, 2}; }
}  // namespace

TEST_CASE("load allowance: the fair share other programs leave the test", "[verdict_bounds]") {
  CHECK(load_allowance(0, 2, 2) == Approx(1.0));
  // Threads shared evenly: beside 2.8 busy cores each of 16 workers keeps 16/18.8, but
  // a control group of its own leaves them 13.2 cores: the larger slowdown counts.
  CHECK(load_allowance(2.8, 16, 16) == Approx(16 / 13.2));
  // Beside 8 free cores the threads' share is the bound.
  CHECK(load_allowance(2.8, 8, 16) == Approx(10.8 / 8));
  // A serial task (0 cores named) counts as one; a negative figure as none.
  CHECK(load_allowance(0.5, 0, 2) == Approx(1.5));
  CHECK(load_allowance(-1, 2, 2) == Approx(1.0));
}

TEST_CASE("load allowance: a busy program in its own control group takes its cores whole",
          "[verdict_bounds]") {
  // Measured: the Python lab01 reference beside one busy loop on 2 cores kept 1.00 of
  // them (groups shared evenly), not 4/3 (threads shared evenly): slowed 2x, not 1.5x.
  CHECK(load_allowance(1.0, 2, 2) == Approx(2.0));
  CHECK(load_allowance(0.98, 2, 2) == Approx(2 / 1.02));
  // The test's group keeps at least one core, however heavy the load.
  CHECK(load_allowance(1.9, 2, 2) == Approx(2.0));
  CHECK(load_allowance(7.0, 4, 8) == Approx(4.0));
  // On a large machine the free cores absorb the load: only the thread share is left.
  CHECK(load_allowance(2.0, 2, 16) == Approx(2.0));
  CHECK(load_allowance(1.0, 4, 16) == Approx(1.25));
}

TEST_CASE("a quiet steady measurement is read as measured", "[verdict_bounds]") {
  const VerdictBounds b = verdict_bounds(two_workers(0.6, 0.5, 0.7), on_two_cores());
  CHECK_FALSE(b.uncertain);
  CHECK(b.best.ratio == Approx(0.6));
  CHECK(b.worst.ratio == Approx(0.6));
  CHECK(b.best.parallel_ok());
}

TEST_CASE("noise widens the ratio to its 95 % interval", "[verdict_bounds]") {
  Measurement m = two_workers(0.6, 0.5, 0.7);
  m.noisy = true;
  const VerdictBounds b = verdict_bounds(m, on_two_cores());
  CHECK(b.uncertain);
  CHECK(b.best.ratio == Approx(0.7));
  CHECK(b.worst.ratio == Approx(0.5));
}

TEST_CASE("load widens it by the fair share and leaves the parallel rules open",
          "[verdict_bounds]") {
  Measurement m = two_workers(0.6, 0.5, 0.7);
  m.interference = "other programs kept 1.00 cores busy";
  m.other_cores = 1.0;
  m.work_spread = 1.3;  // a low spread under load says nothing
  m.required_own_speedup = 1.25;
  const VerdictBounds b = verdict_bounds(m, on_two_cores());
  CHECK(b.best.ratio == Approx(0.7 * 2.0));
  CHECK(b.worst.ratio == Approx(0.5 / 2.0));
  CHECK(b.best.parallel_ok());
  CHECK_FALSE(b.worst.spread_ok);
  // A 1-worker run only 0.6x as long stays short of 1.25x even with the allowance.
  m.work_spread = 1.9;
  m.own_speedup = 0.6;
  const VerdictBounds slow = verdict_bounds(m, on_two_cores());
  CHECK_FALSE(slow.best.own_speedup_ok);
  m.own_speedup = 0.78;  // the reference beside a busy core: 1.56x with the allowance
  CHECK(verdict_bounds(m, on_two_cores()).best.own_speedup_ok);
  m.own_speedup = 1.0;  // 2x with the allowance: could pass
  CHECK(verdict_bounds(m, on_two_cores()).best.own_speedup_ok);
}
