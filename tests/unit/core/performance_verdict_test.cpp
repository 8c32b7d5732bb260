#include <catch2/catch.hpp>

#include "grading/performance_verdict.hpp"

using namespace parlab::grader;

namespace {
Measurement steady(double reported, double cap) {
  Measurement m;
  m.baseline = "reference:serial";
  m.ratios = {reported, reported, reported};
  m.reported_ratio = reported;
  m.observed_cap = cap;
  m.overhead_s = 0.05;
  m.timing_trusted = !(reported > cap * 1.5);
  m.median_ratio = std::min(reported, cap);
  return m;
}
Thresholds scale() { return Thresholds{1.4, 1.0, 0}; }
}  // namespace

TEST_CASE("an honest fast submission gets full points", "[verdict]") {
  PerformanceVerdict v = performance_verdict(steady(2.0, 2.1), scale(), 25);
  CHECK(v.status == TestStatus::passed);
  CHECK(v.points == 25);
  CHECK(v.message.find("not trusted") == std::string::npos);
}

TEST_CASE("forged speed earns what the observation supports and says why", "[verdict]") {
  PerformanceVerdict v = performance_verdict(steady(900.0, 0.98), scale(), 25);
  CHECK(v.points == 0);
  CHECK(v.status == TestStatus::failed);
  CHECK(v.message.find("timing not trusted") != std::string::npos);
  CHECK(v.message.find("900.00x") != std::string::npos);
  CHECK(v.message.find("0.98x") != std::string::npos);
}

TEST_CASE("a noisy measurement is never credited beyond the observation", "[verdict]") {
  Measurement m = steady(1.2, 1.2);
  m.ratios = {1.0, 1.2, 3.0, 3.0};
  m.noisy = true;
  PerformanceVerdict v = performance_verdict(m, scale(), 10);
  CHECK(v.status == TestStatus::inconclusive);
  CHECK(v.points < 10);  // the upper quartile (3x) is capped at the observed 1.2x
  CHECK(v.points == Approx(round_points(10 * performance_fraction(1.2, scale()))));
}
