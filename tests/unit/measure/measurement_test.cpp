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
// An honest child: one call, reported time = its work, plus 50 ms of start-up.
TimedRun replay(std::vector<double> times, int& calls) {
  return [times, &calls](std::string&) -> std::optional<TimedSample> {
    const double t = times[static_cast<std::size_t>(calls++) % times.size()];
    return TimedSample{t, t + 0.05, t, 1};
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

TEST_CASE("noisy ratios that earn nothing even at their interval's high end stop at min_pairs",
          "[measure]") {
  // Candidate 2 to 4 times slower: ratios 0.25 to 0.5, spread far past 10 %; pairs
  // from 5 to 15, no warm-up.
  auto pairs_measured = [](double earns_nothing_at) {
    PerformanceSpec p;
    p.warmup_pairs = 0;
    p.max_pairs = 15;
    SideBySideExtras extras;
    extras.earns_nothing_at = earns_nothing_at;
    int b = 0, c = 0;
    const SideBySide s = measure_side_by_side(replay({1, 1, 1, 1, 1}, b), replay({2, 4, 3, 2.2, 3.5}, c), p,
                                              [] { return 0.0; }, extras);
    REQUIRE(s.ok);
    return s.measurement;
  };
  // Every ratio at or below zero_at: decided after min_pairs, flagged noisy.
  const Measurement decided = pairs_measured(0.5);
  CHECK(decided.ratios.size() == 5);
  CHECK(decided.noisy);
  // The interval reaches past zero_at, or no zero_at given: re-measured to max_pairs.
  CHECK(pairs_measured(0.45).ratios.size() == 15);
  CHECK(pairs_measured(0).ratios.size() == 15);
}

TEST_CASE("noisy ratios whose work spread cannot reach the rule stop once most pairs fell short",
          "[measure]") {
  // Ratios 1/3 to 1 (spread far past 10 %); the candidate's runs spread their work over
  // `spread` processes. With at most 15 pairs, 8 short of the rule put the median short
  // of it whatever the other 7 show.
  auto pairs_measured = [](double spread, double required) {
    PerformanceSpec p;
    p.warmup_pairs = 0;
    p.max_pairs = 15;
    p.parallel = ParallelKind::processes;
    SideBySideExtras extras;
    extras.spread_required = required;
    int b = 0, c = 0;
    const std::vector<double> times = {1, 3, 2};
    TimedRun candidate = [&c, times, spread](std::string&) -> std::optional<TimedSample> {
      const double t = times[static_cast<std::size_t>(c++) % times.size()];
      TimedSample seen{t, t + 0.05, t, 1};
      seen.processes = 3;
      seen.process_spread = spread;
      return seen;
    };
    const SideBySide s = measure_side_by_side(replay({1}, b), candidate, p, [] { return 0.0; }, extras);
    REQUIRE(s.ok);
    return s.measurement;
  };
  const Measurement serial = pairs_measured(1.0, 1.5);
  CHECK(serial.ratios.size() == 8);
  CHECK(serial.noisy);
  CHECK(serial.work_spread == 1.0);
  // Spread enough, or no rule: the ratios' noise is measured out to max_pairs.
  CHECK(pairs_measured(1.9, 1.5).ratios.size() == 15);
  CHECK(pairs_measured(1.0, 0).ratios.size() == 15);
}

TEST_CASE("unobserved runs never count as short of the spread rule", "[measure]") {
  PerformanceSpec p;
  p.warmup_pairs = 0;
  p.max_pairs = 9;
  p.parallel = ParallelKind::processes;
  SideBySideExtras extras;
  extras.spread_required = 1.5;
  int b = 0, c = 0;
  // replay's samples carry no process count: the tree was not observed.
  const SideBySide s = measure_side_by_side(replay({1}, b), replay({1, 3, 2}, c), p, [] { return 0.0; },
                                            extras);
  REQUIRE(s.ok);
  CHECK(s.measurement.ratios.size() == 9);
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
  TimedRun failing = [](std::string& err) -> std::optional<TimedSample> {
    err = "crashed with SIGSEGV";
    return std::nullopt;
  };
  SideBySide s = measure_side_by_side(replay({1}, b), failing, p, [] { return 0.0; });
  CHECK_FALSE(s.ok);
  CHECK(s.candidate_failed);
  CHECK(s.error == "crashed with SIGSEGV");
}

TEST_CASE("the baseline's failure is not the candidate's", "[measure]") {
  PerformanceSpec p;
  int c = 0;
  TimedRun failing = [](std::string& err) -> std::optional<TimedSample> {
    err = "time limit";
    return std::nullopt;
  };
  SideBySide s = measure_side_by_side(failing, replay({1}, c), p, [] { return 0.0; });
  CHECK_FALSE(s.ok);
  CHECK_FALSE(s.candidate_failed);
  CHECK(s.error.find("time limit") != std::string::npos);
}

TEST_CASE("an honest candidate keeps its reported ratio", "[measure][observed]") {
  PerformanceSpec p;
  p.warmup_pairs = 1;
  p.min_pairs = 5;
  int b = 0, c = 0;
  SideBySide s = measure_side_by_side(replay({2.0}, b), replay({0.5}, c), p, [] { return 0.0; });
  REQUIRE(s.ok);
  CHECK(s.measurement.reported_ratio == Approx(4.0));
  CHECK(s.measurement.median_ratio == Approx(4.0));
  CHECK(s.measurement.timing_trusted);
  CHECK(s.measurement.observed_cap >= 4.0);
}

TEST_CASE("work hidden from the harness's clock is capped by the wall time", "[measure][observed]") {
  // The candidate reports 1 ms per call but its process runs as long as the baseline's:
  // the work happened in a constructor, or its clock lies.
  PerformanceSpec p;
  p.warmup_pairs = 0;
  p.min_pairs = 5;
  int b = 0;
  TimedRun forged = [](std::string&) -> std::optional<TimedSample> {
    return TimedSample{0.001, 2.05, 2.0, 1};
  };
  SideBySide s = measure_side_by_side(replay({2.0}, b), forged, p, [] { return 0.0; });
  REQUIRE(s.ok);
  CHECK(s.measurement.reported_ratio == Approx(2000.0));
  CHECK(s.measurement.median_ratio < 1.1);
  CHECK_FALSE(s.measurement.timing_trusted);
}

TEST_CASE("observed speed: overhead from the baseline, slack from its noise", "[observed]") {
  std::vector<TimedSample> base, cand;
  for (double overhead : {0.10, 0.11, 0.09, 0.10, 0.12}) base.push_back({0.2, 0.2 * 3 + overhead, 0.6, 3});
  for (int i = 0; i < 5; ++i) cand.push_back({0.1, 0.1 * 3 + 0.10, 0.6, 3});
  ObservedSpeed o = observed_speed(base, cand);
  CHECK(o.overhead_s == Approx(0.10).margin(1e-9));
  CHECK(o.slack_s >= 0.01);
  CHECK(o.resolvable);
  CHECK(o.cap >= 2.0);                       // the honest 2x is supported
  CHECK_FALSE(claims_beyond_observation(2.0, o));
  CHECK_FALSE(claims_beyond_observation(o.cap * 1.4, o));  // within the noise margin
  CHECK(claims_beyond_observation(o.cap * 1.6, o));
  CHECK(claims_beyond_observation(50.0, o));
  CHECK(o.candidate_cores == Approx(1.5));   // 0.6 s of CPU in 0.4 s
}

TEST_CASE("observed speed: a task short beside start-up noise is not resolvable", "[observed]") {
  std::vector<TimedSample> base(5, TimedSample{0.001, 0.301, 0.3, 1});
  std::vector<TimedSample> cand(5, TimedSample{0.0005, 0.3005, 0.3, 1});
  ObservedSpeed o = observed_speed(base, cand);
  CHECK_FALSE(o.resolvable);
  CHECK_THROWS(observed_speed({}, {}));
}

TEST_CASE("median interval from order statistics", "[measure]") {
  // n = 9: the 2nd and 8th values bound the median with >= 95 % confidence.
  Interval ci = median_interval({9, 1, 8, 2, 7, 3, 6, 4, 5});
  CHECK(ci.low == 2);
  CHECK(ci.high == 8);
  // Fewer than 6 values: only the extremes reach 95 %.
  ci = median_interval({3, 1, 2});
  CHECK(ci.low == 1);
  CHECK(ci.high == 3);
  CHECK_THROWS(median_interval({}));
}

namespace {
// A run that also reports the machine's other load, from a list (cycled).
TimedRun loaded(double t, std::vector<double> others, int& calls, std::vector<char>* order,
                char name) {
  return [=, &calls](std::string&) -> std::optional<TimedSample> {
    if (order) order->push_back(name);
    TimedSample s{t, t + 0.05, t, 1};
    s.others_cores = others[static_cast<std::size_t>(calls++) % others.size()];
    s.processes = 2;
    s.threads = 2;
    s.process_spread = s.thread_spread = 1.9;
    return s;
  };
}
}  // namespace

TEST_CASE("pairs alternate their order: B C, C B, B C", "[measure][load]") {
  PerformanceSpec p;
  p.warmup_pairs = 1;
  p.min_pairs = 3;
  int b = 0, c = 0;
  std::vector<char> order;
  SideBySide s = measure_side_by_side(loaded(2, {0}, b, &order, 'B'), loaded(1, {0}, c, &order, 'C'),
                                      p, [] { return 0.0; });
  REQUIRE(s.ok);
  CHECK(std::string(order.begin(), order.end()) == "BCCBBCCB");
}

TEST_CASE("a pair disturbed by other programs is set aside and re-measured", "[measure][load]") {
  PerformanceSpec p;
  p.warmup_pairs = 0;
  p.min_pairs = 3;
  p.max_other_load = 0.35;
  int b = 0, c = 0;
  // The baseline's 2nd run saw a core taken by someone else.
  SideBySide s = measure_side_by_side(loaded(2, {0, 0.9, 0, 0, 0}, b, nullptr, 'B'),
                                      loaded(1, {0.05}, c, nullptr, 'C'), p, [] { return 0.0; });
  REQUIRE(s.ok);
  CHECK(s.disturbed_pairs == 1);
  CHECK_FALSE(s.disturbed);
  CHECK(s.measurement.ratios.size() == 3);  // the quiet ones
  CHECK(s.measurement.interference.empty());
  CHECK(s.measurement.work_spread == Approx(1.9));
  CHECK(s.measurement.candidate_processes == 2);
}

TEST_CASE("a steady load gives up after min_pairs disturbed pairs and says what it saw",
          "[measure][load]") {
  PerformanceSpec p;
  p.warmup_pairs = 0;
  p.min_pairs = 5;
  p.max_pairs = 15;
  int b = 0, c = 0;
  SideBySide s = measure_side_by_side(loaded(2, {1.0}, b, nullptr, 'B'),
                                      loaded(1, {0.98}, c, nullptr, 'C'), p, [] { return 0.0; });
  REQUIRE(s.ok);
  CHECK(s.disturbed);
  CHECK(b == 5);
  CHECK(s.measurement.ratios.size() == 5);  // every pair shown
  CHECK(s.measurement.interference.find("kept 1.00 cores busy") != std::string::npos);
  CHECK(s.measurement.interference.find("0 of 5 pairs were quiet") != std::string::npos);
}

TEST_CASE("a gain test's three runs take every place in turn and never follow themselves",
          "[measure][gain]") {
  PerformanceSpec p;
  p.warmup_pairs = 1;
  p.min_pairs = 5;
  int b = 0, c = 0, r = 0;
  std::vector<char> order;
  SideBySideExtras extras;
  extras.reference_candidate = loaded(1.6, {0}, r, &order, 'R');
  SideBySide s = measure_side_by_side(loaded(2, {0}, b, &order, 'B'), loaded(1, {0}, c, &order, 'C'),
                                      p, [] { return 0.0; }, extras);
  REQUIRE(s.ok);
  const std::string seen(order.begin(), order.end());
  CHECK(seen == "BCR" "CRB" "RBC" "RCB" "CBR" "BRC");  // the warm-up pair, then 5
  for (std::size_t i = 1; i < seen.size(); ++i) CHECK(seen[i] != seen[i - 1]);
  for (char run : {'B', 'C', 'R'}) {
    for (std::size_t place = 0; place < 3; ++place) {
      int times = 0;
      for (std::size_t triple = 0; triple < 6; ++triple) times += seen[triple * 3 + place] == run;
      CHECK(times == 2);
    }
  }
  CHECK(s.measurement.median_ratio == Approx(2.0));
  CHECK(s.measurement.reference_ratio == Approx(2.0 / 1.6));
  CHECK(s.measurement.reference_ratio_low == Approx(2.0 / 1.6));
}

TEST_CASE("a gain test's reference run: its load sets a pair aside, its failure is not the "
          "candidate's", "[measure][gain]") {
  PerformanceSpec p;
  p.warmup_pairs = 0;
  p.min_pairs = 3;
  int b = 0, c = 0, r = 0;
  SideBySideExtras extras;
  extras.reference_candidate = loaded(1.5, {0, 0.9, 0, 0}, r, nullptr, 'R');
  SideBySide s = measure_side_by_side(loaded(2, {0}, b, nullptr, 'B'), loaded(1, {0}, c, nullptr, 'C'),
                                      p, [] { return 0.0; }, extras);
  REQUIRE(s.ok);
  CHECK(s.disturbed_pairs == 1);
  CHECK(s.measurement.ratios.size() == 3);

  int b2 = 0, c2 = 0;
  SideBySideExtras failing;
  failing.reference_candidate = [](std::string& err) -> std::optional<TimedSample> {
    err = "timed out";
    return std::nullopt;
  };
  SideBySide f = measure_side_by_side(loaded(2, {0}, b2, nullptr, 'B'),
                                      loaded(1, {0}, c2, nullptr, 'C'), p, [] { return 0.0; }, failing);
  CHECK_FALSE(f.ok);
  CHECK(f.witness_failed);
  CHECK_FALSE(f.candidate_failed);
  CHECK(f.error.find("the reference's own run of the candidate's task failed: timed out") !=
        std::string::npos);
}

TEST_CASE("a baseline of another kind: the witness runs give the reference's ratio",
          "[measure][gain]") {
  PerformanceSpec p;
  p.warmup_pairs = 0;
  p.min_pairs = 3;
  int b = 0, c = 0, w = 0;
  SideBySideExtras extras;
  extras.witness = loaded(0.25, {0}, w, nullptr, 'W');
  SideBySide s = measure_side_by_side(loaded(2, {0}, b, nullptr, 'B'), loaded(0.5, {0}, c, nullptr, 'C'),
                                      p, [] { return 0.0; }, extras);
  REQUIRE(s.ok);
  CHECK(w == 5);
  CHECK(s.measurement.reference_ratio == Approx(8.0));
  CHECK(s.measurement.reference_ratio_low == Approx(8.0));
}
