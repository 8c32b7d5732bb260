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
