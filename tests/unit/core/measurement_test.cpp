#include <catch2/catch.hpp>
#include <vector>

#include "measure/side_by_side.hpp"
#include "measure/statistics.hpp"

using namespace parlab::grader;

TEST_CASE("median, quantiles and relative spread", "[measure]") {
  CHECK(median({3, 1, 2}) == 2);
  CHECK(median({4, 1, 2, 3}) == 2.5);
  CHECK(quantile({1, 2, 3, 4, 5}, 0.25) == 2);
  CHECK(relative_spread({10, 10, 10, 10}) == 0);
  CHECK(relative_spread({1, 2, 3, 4, 5}) == Approx(2.0 / 3.0));
  CHECK_THROWS(median({}));
}

namespace {
// Replays a list of times; counts calls.
TimedRun replay(std::vector<double> times, int& calls) {
  return [times, &calls](std::string&) -> std::optional<double> {
    return times[static_cast<std::size_t>(calls++) % times.size()];
  };
}
}  // namespace

TEST_CASE("steady ratios stop after min_pairs, warm-up excluded", "[measure]") {
  PerformanceSpec p;
  p.warmup_pairs = 1;
  p.min_pairs = 5;
  p.max_pairs = 15;
  p.max_spread = 0.1;
  int b = 0, c = 0;
  // first pair (warm-up) is wildly off and must not count
  std::vector<double> base = {9.0, 2, 2, 2, 2, 2, 2};
  std::vector<double> cand = {0.1, 1, 1, 1, 1, 1, 1};
  SideBySide s = measure_side_by_side(replay(base, b), replay(cand, c), p, [] { return 0.0; });
  REQUIRE(s.ok);
  CHECK(b == 6);  // 1 warm-up + 5 measured
  CHECK(c == 6);
  CHECK(s.measurement.ratios.size() == 5);
  CHECK(s.measurement.median_ratio == 2.0);
  CHECK_FALSE(s.measurement.noisy);
}

TEST_CASE("noisy ratios are re-measured up to max_pairs, then flagged", "[measure]") {
  PerformanceSpec p;
  p.warmup_pairs = 0;
  p.min_pairs = 5;
  p.max_pairs = 9;
  p.max_spread = 0.1;
  int b = 0, c = 0;
  SideBySide s = measure_side_by_side(replay({1, 3}, b), replay({1, 1, 1}, c), p,
                                      [] { return 0.0; });
  REQUIRE(s.ok);
  CHECK(s.measurement.ratios.size() == 9);
  CHECK(s.measurement.noisy);
}

TEST_CASE("the time budget stops re-measuring", "[measure]") {
  PerformanceSpec p;
  p.warmup_pairs = 0;
  p.min_pairs = 5;
  p.max_pairs = 100;
  p.budget_seconds = 10;
  int b = 0, c = 0;
  double now = 0;
  SideBySide s = measure_side_by_side(replay({1, 3}, b), replay({1}, c), p, [&] {
    now += 4;  // each check: 4 s later
    return now;
  });
  REQUIRE(s.ok);
  CHECK(s.measurement.noisy);
  CHECK(s.measurement.ratios.size() == 3);  // the least a median needs
}

TEST_CASE("a failing candidate is reported as the candidate's failure", "[measure]") {
  PerformanceSpec p;
  int b = 0;
  TimedRun failing = [](std::string& err) -> std::optional<double> {
    err = "crashed with SIGSEGV";
    return std::nullopt;
  };
  SideBySide s = measure_side_by_side(replay({1}, b), failing, p, [] { return 0.0; });
  CHECK_FALSE(s.ok);
  CHECK(s.candidate_failed);
  CHECK(s.error == "crashed with SIGSEGV");
}
