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
  CHECK(load_allowance(0, 2) == Approx(1.0));
  // One busy program beside two workers on 2 cores: each worker keeps 2/3 of a core.
  CHECK(load_allowance(1.0, 2) == Approx(1.5));
  CHECK(load_allowance(2.8, 16) == Approx(1.175));
  // A serial task (0 cores named) counts as one; a negative figure as none.
  CHECK(load_allowance(0.5, 0) == Approx(1.5));
  CHECK(load_allowance(-1, 2) == Approx(1.0));
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
  CHECK(b.best.ratio == Approx(0.7 * 1.5));
  CHECK(b.worst.ratio == Approx(0.5 / 1.5));
  CHECK(b.best.parallel_ok());
  CHECK_FALSE(b.worst.spread_ok);
  // A 1-worker run only 0.6x as long stays short of 1.25x even with the allowance.
  m.work_spread = 1.9;
  m.own_speedup = 0.6;
  const VerdictBounds slow = verdict_bounds(m, on_two_cores());
  CHECK_FALSE(slow.best.own_speedup_ok);
  m.own_speedup = 1.0;  // 1.5x with the allowance: could pass
  CHECK(verdict_bounds(m, on_two_cores()).best.own_speedup_ok);
}
