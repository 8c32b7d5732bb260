#include <catch2/catch.hpp>
#include <cmath>

#include "score/scoring.hpp"

using namespace parlab::grader;

TEST_CASE("performance scale: zero below, full above, log-linear between", "[score]") {
  Thresholds t{0.8, 0.1, 0};
  CHECK(performance_fraction(0.05, t) == 0);
  CHECK(performance_fraction(0.1, t) == 0);
  CHECK(performance_fraction(0.8, t) == 1);
  CHECK(performance_fraction(3.0, t) == 1);
  // geometric midpoint earns half
  CHECK(performance_fraction(std::sqrt(0.8 * 0.1), t) == Approx(0.5));
  CHECK(performance_fraction(0.2, t) == Approx(std::log(2.0) / std::log(8.0)));
  CHECK(performance_fraction(std::nan(""), t) == 0);
  CHECK(performance_fraction(-1, t) == 0);
}

TEST_CASE("core scaling multiplies per-core thresholds by min(cores, workers)", "[score]") {
  PerformanceSpec p;
  p.full_at = 0.7;
  p.zero_at = 0.5;
  p.scale_with_cores = true;
  Thresholds t = effective_thresholds(p, 2, 0);
  CHECK(t.full_at == Approx(1.4));
  CHECK(t.zero_at == Approx(1.0));
  CHECK(t.parallelism == 2);
  CHECK(effective_thresholds(p, 8, 4).parallelism == 4);
  CHECK(effective_thresholds(p, 1, 4).full_at == Approx(0.7));
  p.scale_with_cores = false;
  CHECK(effective_thresholds(p, 8, 4).full_at == Approx(0.7));
  CHECK(effective_thresholds(p, 8, 4).parallelism == 0);
}

TEST_CASE("points are rounded to hundredths", "[score]") {
  CHECK(round_points(3.14159) == Approx(3.14));
  CHECK(round_points(2.005 + 1e-9) == Approx(2.01));
}

TEST_CASE("the own speedup asked: a share of the reference's own here, never below sqrt",
          "[score]") {
  CHECK(asked_own_speedup(1.25, 0, 0.6) == 1.25);         // not measured
  CHECK(asked_own_speedup(1.25, 1.8, 0.6) == 1.25);       // a machine that gives it
  // A quiet grading here: the reference itself 1.23x; asked 1.23^0.6.
  CHECK(asked_own_speedup(1.25, 1.23, 0.6) == Approx(std::pow(1.23, 0.6)));
  // Never below sqrt(1.25) = 1.118: a burner's 1.0x still fails.
  CHECK(asked_own_speedup(1.25, 1.05, 0.6) == Approx(std::sqrt(1.25)));
  CHECK(asked_own_speedup(1, 1.05, 0.6) == 1);            // the rule off stays off
}

TEST_CASE("a gain test asks no more than a share of the reference's own gain here", "[score]") {
  const Thresholds spec{1.2, 1.0, 0};
  // Not measured: the spec's thresholds.
  GainThresholds none = within_reference_gain(spec, 0, 0, 0.6);
  CHECK(none.asked.full_at == 1.2);
  CHECK_FALSE(none.lowered);
  CHECK(none.judgeable);
  // A machine where the reference gains plenty: unchanged.
  GainThresholds plenty = within_reference_gain(spec, 1.45, 1.40, 0.6);
  CHECK(plenty.asked.full_at == 1.2);
  CHECK_FALSE(plenty.lowered);
  CHECK(plenty.judgeable);
  // CI's machine: the reference's dynamic 1.19x its static; full credit at 1.19^0.6.
  GainThresholds little = within_reference_gain(spec, 1.19, 1.19, 0.6);
  CHECK(little.lowered);
  CHECK(little.judgeable);
  CHECK(little.asked.full_at == Approx(std::pow(1.19, 0.6)));
  CHECK(little.asked.zero_at == 1.0);
  // The reference itself then earns full credit; a static schedule (1.0x) still nothing.
  CHECK(performance_fraction(1.19, little.asked) == 1);
  CHECK(performance_fraction(1.0, little.asked) == 0);
  // Below the log-midpoint of the scale (sqrt(1.2) = 1.095) the gain cannot show here.
  CHECK_FALSE(within_reference_gain(spec, 1.09, 1.09, 0.6).judgeable);
  CHECK(within_reference_gain(spec, 1.10, 1.10, 0.6).judgeable);
  // A reference slower than its own baseline: full_at stays above zero_at.
  GainThresholds slower = within_reference_gain(spec, 0.9, 0.9, 0.6);
  CHECK_FALSE(slower.judgeable);
  CHECK(slower.asked.full_at > slower.asked.zero_at);
  CHECK(slower.asked.full_at == Approx(std::sqrt(1.2)));
  // The share is of the low end of the reference's interval: its own noise is the
  // machine's (a quiet grading here: median 1.32x, the candidate, the same code, 1.18x).
  GainThresholds noisy = within_reference_gain(spec, 1.32, 1.18, 0.6);
  CHECK(noisy.judgeable);
  CHECK(noisy.asked.full_at == Approx(std::pow(1.18, 0.6)));
  CHECK(performance_fraction(1.18, noisy.asked) == 1);
  // Never below the log-midpoint (sqrt(1.2) = 1.095): static code measured at 1.06x by
  // noise earns no full credit, however low the reference's interval reaches.
  GainThresholds floor = within_reference_gain(spec, 1.32, 1.05, 0.6);
  CHECK(floor.asked.full_at == Approx(std::sqrt(1.2)));
  CHECK(performance_fraction(1.06, floor.asked) < 1);
  // A low end above the median (never so from an interval) counts as the median.
  CHECK(within_reference_gain(spec, 1.19, 1.5, 0.6).asked.full_at == Approx(std::pow(1.19, 0.6)));
  // A fraction-of-a-library test (tiled against cuBLAS) on the same log axis.
  GainThresholds library = within_reference_gain({0.06, 0.01, 0}, 0.05, 0.05, 0.6);
  CHECK(library.asked.full_at == Approx(0.01 * std::pow(5.0, 0.6)));
  CHECK(within_reference_gain({0.06, 0.01, 0}, 0.05, 0.03, 0.6).asked.full_at ==
        Approx(std::sqrt(0.06 * 0.01)));
}
