// grading/sim_counters: the counters file is written by the child (untrusted); a
// counter over the reference's scores a sim-mode substitute of a GPU performance test.
#include <catch2/catch.hpp>
#include <cmath>

#include "grading/sim_counters.hpp"

using namespace parlab::grader;
using Catch::Matchers::Contains;

namespace {

const char* kLine =
    "{\"kernel\": \"k\", \"threads\": 256, \"global_loads\": 512, \"global_stores\": 256, "
    "\"global_requests\": 16, \"global_sectors\": 288, \"global_ideal_sectors\": 64, "
    "\"shared_accesses\": 128, \"shared_requests\": 4, \"shared_conflict_ways\": 32}\n";

TestResult test_worth(double points) {
  TestResult r;
  r.max_points = points;
  return r;
}

SimCheckSpec check(SimCounter counter, double full_at, double zero_at) {
  SimCheckSpec c;
  c.counter = counter;
  c.full_at = full_at;
  c.zero_at = zero_at;
  c.hint = "read along a row";
  return c;
}

}  // namespace

TEST_CASE("the launches' lines are summed and give each counter", "[sim_counters]") {
  const auto totals = parse_sim_counters(std::string(kLine) + kLine);
  REQUIRE(totals);
  CHECK(totals->launches == 2);
  CHECK(totals->threads == 512);
  // Scored: whole-run totals over the outputs' 256 elements.
  CHECK(*counter_value(*totals, SimCounter::global_bytes_per_output, 256) == Approx(576 * 32 / 256.0));
  CHECK(*counter_value(*totals, SimCounter::global_loads_per_output, 256) == Approx(4.0));
  CHECK(*counter_value(*totals, SimCounter::shared_passes_per_output, 256) == Approx(0.25));
  CHECK_FALSE(counter_value(*totals, SimCounter::global_loads_per_output, 0));  // no output
  // Shown, never scored: averages per request.
  CHECK(*sectors_per_request(*totals) == Approx(18.0));
  CHECK(*sectors_over_ideal(*totals) == Approx(4.5));
  CHECK(*loads_per_store(*totals) == Approx(2.0));
  CHECK(conflict_ways_per_request(*totals) == Approx(8.0));
}

// The holes the scored figures close: useless work that improves an average per request
// or per store must make the scored figure worse, never better.
TEST_CASE("padding with useless coalesced loads lowers sectors per request but raises the "
          "traffic per output element", "[sim_counters]") {
  // matrix_scale on 64 x 256 with threads down a column: every float load and store a
  // request of 32 sectors; 512 warps, one load and one store each.
  CounterTotals uncoalesced;
  uncoalesced.launches = 1;
  uncoalesced.global_loads = uncoalesced.global_stores = 16384;
  uncoalesced.global_requests = 1024;
  uncoalesced.global_sectors = 1024 * 32;
  uncoalesced.global_ideal_sectors = 1024 * 4;
  // The same plus 60 coalesced loads per thread: 60 more requests a warp, 4 sectors each.
  CounterTotals padded = uncoalesced;
  padded.global_loads += 60 * 16384;
  padded.global_requests += 60 * 512;
  padded.global_sectors += 60 * 512 * 4;
  padded.global_ideal_sectors += 60 * 512 * 4;
  REQUIRE(*sectors_over_ideal(padded) < 1.25);  // the average looks coalesced
  REQUIRE(*sectors_over_ideal(uncoalesced) == Approx(8.0));
  const auto bytes = [](const CounterTotals& t) {
    return *counter_value(t, SimCounter::global_bytes_per_output, 16384);
  };
  CHECK(bytes(uncoalesced) == Approx(64.0));  // a sector per float read and written
  CHECK(bytes(padded) > bytes(uncoalesced));
  const SimCheckSpec c = check(SimCounter::global_bytes_per_output, 1.5, 4.0);
  TestResult honest = test_worth(8), padding = test_worth(8);
  score_sim_check(c, bytes(uncoalesced), 8.0, honest);
  score_sim_check(c, bytes(padded), 8.0, padding);
  CHECK(padding.points <= honest.points);
  CHECK(padding.points == 0);
}

TEST_CASE("storing the running sum more often lowers loads per store but not loads per "
          "output element", "[sim_counters]") {
  // Naive matmul on 32 x 32 x 1031: 2k loads per element of C, one store; padded, a
  // store every 64 steps of k too (17 in all).
  CounterTotals untiled;
  untiled.launches = 1;
  untiled.global_loads = 1024 * 2062;
  untiled.global_stores = 1024;
  untiled.global_requests = untiled.global_sectors = untiled.global_ideal_sectors = 1;
  CounterTotals padded = untiled;
  padded.global_stores = 1024 * 17;
  REQUIRE(*loads_per_store(padded) < 128.875);  // better than the reference tile's
  const auto loads = [](const CounterTotals& t) {
    return *counter_value(t, SimCounter::global_loads_per_output, 1024);
  };
  CHECK(loads(untiled) == Approx(2062.0));
  CHECK(loads(padded) == loads(untiled));
  // Useless loads on top only add to it.
  CounterTotals more = padded;
  more.global_loads += 1024;
  CHECK(loads(more) > loads(padded));
  const SimCheckSpec c = check(SimCounter::global_loads_per_output, 2.0, 8.0);
  TestResult honest = test_worth(10), padding = test_worth(10);
  score_sim_check(c, loads(untiled), 128.875, honest);
  score_sim_check(c, loads(padded), 128.875, padding);
  CHECK(padding.points <= honest.points);
  CHECK(padding.points == 0);
}

TEST_CASE("useless shared requests without conflicts add passes per output element",
          "[sim_counters]") {
  CounterTotals conflicted;
  conflicted.launches = 1;
  conflicted.shared_requests = 100;
  conflicted.shared_conflict_ways = 3200;  // 32-way
  CounterTotals padded = conflicted;
  padded.shared_requests += 3100;  // conflict-free: 1 pass each
  padded.shared_conflict_ways += 3100;
  REQUIRE(conflict_ways_per_request(padded) < 2.0);
  CHECK(*counter_value(padded, SimCounter::shared_passes_per_output, 1024) >
        *counter_value(conflicted, SimCounter::shared_passes_per_output, 1024));
}

TEST_CASE("malformed, negative, fractional, huge or incomplete lines are skipped",
          "[sim_counters]") {
  CHECK_FALSE(parse_sim_counters(""));
  CHECK_FALSE(parse_sim_counters("not json\n[1, 2]\n\"text\"\n"));
  std::string hostile = kLine;
  hostile.replace(hostile.find("256,"), 3, "-25");
  CHECK_FALSE(parse_sim_counters(hostile));
  std::string fractional = kLine;
  fractional.replace(fractional.find("512"), 3, "5.5");
  CHECK_FALSE(parse_sim_counters(fractional));
  std::string huge = kLine;
  huge.replace(huge.find("512"), 3, "99999999999999999");
  CHECK_FALSE(parse_sim_counters(huge));
  CHECK_FALSE(parse_sim_counters("{\"kernel\": \"k\", \"threads\": 256}\n"));
  const auto one = parse_sim_counters("garbage\n" + hostile + kLine);
  REQUIRE(one);
  CHECK(one->launches == 1);
}

TEST_CASE("a run with no shared or global request", "[sim_counters]") {
  CounterTotals none;
  none.launches = 1;
  CHECK(conflict_ways_per_request(none) == 1.0);  // no request, no conflict
  CHECK(*counter_value(none, SimCounter::shared_passes_per_output, 16) == 0.0);
  CHECK_FALSE(sectors_per_request(none));
  CHECK_FALSE(loads_per_store(none));
  // No global request: the work was not done by a kernel.
  CHECK_FALSE(counter_value(none, SimCounter::global_bytes_per_output, 16));
  CHECK_FALSE(counter_value(none, SimCounter::global_loads_per_output, 16));
}

TEST_CASE("lower is better: full marks up to full_at x the reference, none from zero_at",
          "[sim_counters]") {
  const SimCheckSpec c = check(SimCounter::global_bytes_per_output, 1.5, 4.0);
  TestResult same = test_worth(8);
  score_sim_check(c, 4.0, 4.0, same);
  CHECK(same.status == TestStatus::passed);
  CHECK(same.points == 8);
  CHECK_THAT(same.message, Contains("global traffic in bytes per output element: 4.0 "
                                    "(reference: 4.0); full marks at 6.0 or less, none at "
                                    "16.0 or more"));
  CHECK_THAT(same.message, !Contains("read along a row"));

  TestResult uncoalesced = test_worth(8);
  score_sim_check(c, 32.0, 4.0, uncoalesced);
  CHECK(uncoalesced.status == TestStatus::failed);
  CHECK(uncoalesced.points == 0);
  CHECK_THAT(uncoalesced.message, Contains("32.0 (reference: 4.0)"));
  CHECK_THAT(uncoalesced.message, Contains("\nread along a row"));

  // Between the two, on the same log scale as a speed ratio: 8 sectors is 2x the
  // reference, log(4/2) / log(4/1.5) of the points.
  TestResult between = test_worth(8);
  score_sim_check(c, 8.0, 4.0, between);
  CHECK(between.status == TestStatus::partial);
  CHECK(between.points == Approx(8 * std::log(2.0) / std::log(4.0 / 1.5)).margin(0.01));

  TestResult better = test_worth(8);
  score_sim_check(c, 1.0, 4.0, better);
  CHECK(better.status == TestStatus::passed);
}

TEST_CASE("a check's figures are a structured measurement too", "[sim_counters]") {
  TestResult untiled = test_worth(10);
  score_sim_check(check(SimCounter::global_loads_per_output, 2.0, 8.0), 2062.0, 128.9, untiled);
  REQUIRE(untiled.measurement);
  REQUIRE(untiled.measurement->counter);
  const CounterMeasurement& c = *untiled.measurement->counter;
  CHECK(c.counter == "global_loads_per_output");
  CHECK(c.what == "global loads per output element");
  CHECK(c.value == 2062.0);
  CHECK(c.reference == 128.9);
  CHECK(c.ratio == Approx(2062.0 / 128.9));
  CHECK(c.full_at == 2.0);
  CHECK(c.zero_at == 8.0);
  // No timing: a counter check is not a speed ratio.
  CHECK(untiled.measurement->median_ratio == 0);
  CHECK(untiled.measurement->ratios.empty());

  // A reference that counted 0 (no shared request: no pass) gives no ratio rather than
  // infinity.
  TestResult zero = test_worth(8);
  score_sim_check(check(SimCounter::shared_passes_per_output, 1.5, 4.0), 0.0, 0.0, zero);
  REQUIRE(zero.measurement);
  CHECK(zero.measurement->counter->ratio == 0);
}

TEST_CASE("both runs' counters side by side", "[sim_counters]") {
  auto mine = *parse_sim_counters(kLine);
  auto reference = mine;
  reference.global_sectors = 64;
  CHECK(counters_side_by_side(mine, reference) ==
        "counters of every block: global sectors per request 18.0 "
        "(reference: 4.0), threads per global request 48.0 (reference: 48.0), threads per shared "
        "request 32.0 (reference: 32.0), global loads "
        "per global store 2.0 (reference: 2.0), shared "
        "bank-conflict ways per request 8.0 (reference: 8.0), memory accesses of host code 0 "
        "(reference: 0)");
}

TEST_CASE("host code that did the task's work fails the counter check, the reference's own "
          "host work and a handful per launch do not", "[sim_counters]") {
  CounterTotals reference;
  reference.launches = 1;
  reference.host_accesses = 2000;  // the reference's launch and whatever its build counted
  CounterTotals honest = reference;
  honest.host_accesses = 2000 + 1024 / 64;  // within the slack for 1024 outputs
  CHECK_FALSE(host_did_task_work(honest, reference, 1024));
  CounterTotals on_cpu = reference;
  on_cpu.host_accesses = 2000 + 1024 / 64 + 1;
  CHECK(host_did_task_work(on_cpu, reference, 1024));
  // A matmul of 32 x 32 outputs over k = 1031 on the CPU: two loads per multiply-add.
  on_cpu.host_accesses = 2 * 32 * 32 * 1031;
  CHECK(host_did_task_work(on_cpu, reference, 32 * 32));
}

TEST_CASE("kernels whose memory requests ran on few threads of their warps fail the counter "
          "check, half-full warps do not", "[sim_counters]") {
  CounterTotals reference;
  reference.launches = 1;
  reference.global_requests = 100;
  reference.global_loads = 3000;  // 30 threads a request, as a 16 x 16 block's warps
  reference.global_stores = 200;
  CHECK(threads_per_request(reference) == Approx(32.0));
  CounterTotals half = reference;  // 4 x 4 blocks: 16 threads a warp
  half.global_loads = 1400;
  CHECK(threads_per_request(half) == Approx(16.0));
  CHECK_FALSE(ran_on_few_threads(half, reference));
  CounterTotals under_half = half;
  under_half.global_loads = 1399;
  CHECK(ran_on_few_threads(under_half, reference));
  // One thread staging A and B in its own arrays: every request one thread's.
  CounterTotals one_thread;
  one_thread.launches = 1;
  one_thread.global_requests = 66000;
  one_thread.global_loads = 65000;
  one_thread.global_stores = 1000;
  CHECK(ran_on_few_threads(one_thread, reference));
  // Nothing to judge without a request on either side.
  CHECK_FALSE(ran_on_few_threads(CounterTotals{}, reference));
  CHECK_FALSE(ran_on_few_threads(one_thread, CounterTotals{}));
}

TEST_CASE("kernels that made many times the reference's requests per output fail the counter "
          "check, an untiled kernel does not", "[sim_counters]") {
  // lab05's data-reuse check, 32 x 32 outputs, K = 1031, per output: the reference tile
  // makes 2K / 16 global loads in 8 full-warp requests per 256 outputs of each step, and
  // 2K shared reads in requests of 32.
  const std::uint64_t outputs = 32 * 32;
  CounterTotals tile;
  tile.launches = 1;
  tile.global_requests = outputs * 4;
  tile.global_loads = outputs * 129;
  tile.shared_requests = outputs * 68;
  tile.shared_accesses = tile.shared_requests * 32;
  CHECK(requests_per_output(tile, outputs) == Approx(72.0));
  // The block stages the same tiles, one thread computes from them: a shared request of
  // one lane per read.
  CounterTotals one_thread = tile;
  one_thread.shared_requests = outputs * (4 + 2062);
  one_thread.shared_accesses = outputs * (128 + 2062);
  CHECK(made_many_requests(one_thread, tile, outputs));
  CHECK_FALSE(ran_on_few_threads(one_thread, tile));  // its global requests are full
  // Full-warp padding to raise the lanes per shared request only adds requests.
  CounterTotals padded = one_thread;
  padded.shared_requests += outputs * 2062;
  padded.shared_accesses += outputs * 2062 * 32;
  CHECK(made_many_requests(padded, tile, outputs));
  // Untiled: the tile's shared reads are global loads instead, in as many requests.
  CounterTotals untiled;
  untiled.launches = 1;
  untiled.global_requests = outputs * 2062 / 32 + outputs / 32;
  untiled.global_loads = outputs * 2062;
  CHECK_FALSE(made_many_requests(untiled, tile, outputs));
  // Four times the reference's is still honest (a conflicted or unrolled-less variant).
  CounterTotals four = tile;
  four.shared_requests = outputs * 284;
  CHECK_FALSE(made_many_requests(four, tile, outputs));
  four.shared_requests += outputs;
  CHECK(made_many_requests(four, tile, outputs));
  // Nothing to judge without outputs or a request on either side.
  CHECK_FALSE(made_many_requests(one_thread, tile, 0));
  CHECK_FALSE(made_many_requests(one_thread, CounterTotals{}, outputs));
}

TEST_CASE("a memory-access hint is kept only where this run is clearly worse than the "
          "reference on the same data", "[sim_counters]") {
  CounterTotals coalesced;
  coalesced.launches = 1;
  coalesced.global_requests = 16;
  coalesced.global_sectors = 64;
  coalesced.global_ideal_sectors = 64;
  coalesced.shared_requests = 8;
  coalesced.shared_conflict_ways = 16;  // 2-way, as lab02's reference staging
  CounterTotals strided = coalesced;
  strided.global_sectors = 512;
  const HintJudgement worse = judge_memory_hint(false, strided, coalesced);
  CHECK(worse.keep);
  CHECK(worse.comparison ==
        "this run: 8.0 global sectors over the fewest needed (reference on the same data: 1.0)");
  CHECK_FALSE(judge_memory_hint(false, coalesced, coalesced).keep);  // the reference's own
  CHECK_FALSE(judge_memory_hint(true, coalesced, coalesced).keep);   // 2-way, as the reference
  CounterTotals conflicted = coalesced;
  conflicted.shared_conflict_ways = 256;  // 32-way
  CHECK(judge_memory_hint(true, conflicted, coalesced).keep);
  CounterTotals nothing;  // no global request: no figure, the hint stays as it is
  const HintJudgement unknown = judge_memory_hint(false, nothing, coalesced);
  CHECK(unknown.keep);
  CHECK(unknown.comparison.empty());
}

TEST_CASE("warp divergence: summed from the lines that have it, a share of the work",
          "[sim_counters]") {
  const std::string divergent =
      "{\"kernel\": \"k\", \"threads\": 256, \"global_loads\": 256, \"global_stores\": 256, "
      "\"global_requests\": 16, \"global_sectors\": 64, \"global_ideal_sectors\": 64, "
      "\"shared_accesses\": 0, \"shared_requests\": 0, \"shared_conflict_ways\": 0, \"warps\": 8, "
      "\"divergent_warps\": 8, \"warp_blocks\": 32, \"divergent_warp_blocks\": 16, "
      "\"warp_block_runs\": 32, \"divergent_runs\": 16, \"code_bytes\": 2000, "
      "\"divergent_code_bytes\": 1000}\n";
  const auto totals = parse_sim_counters(divergent + kLine);  // kLine: no divergence fields
  REQUIRE(totals);
  CHECK(totals->launches == 2);
  CHECK(totals->warps == 8);
  CHECK(totals->divergent_warps == 8);
  CHECK(totals->code_bytes == 2000);
  CHECK(*warp_divergence_share(*totals) == Approx(0.5));
  CHECK_FALSE(warp_divergence_share(*parse_sim_counters(kLine)));
  // More divergent blocks than blocks: the divergence figures of that line are dropped.
  std::string impossible = divergent;
  impossible.replace(impossible.find("\"divergent_warp_blocks\": 16"), 27,
                     "\"divergent_warp_blocks\": 99");
  const auto dropped = parse_sim_counters(impossible);
  REQUIRE(dropped);  // the memory figures stay
  CHECK(dropped->global_requests == 16);
  CHECK_FALSE(warp_divergence_share(*dropped));
  // More divergent work than work: dropped the same way.
  std::string more_work = divergent;
  const std::string fair = "\"divergent_code_bytes\": 1000";
  more_work.replace(more_work.find(fair), fair.size(), "\"divergent_code_bytes\": 3000");
  const auto too_much = parse_sim_counters(more_work);
  REQUIRE(too_much);  // the memory figures stay
  CHECK_FALSE(warp_divergence_share(*too_much));

  CounterTotals uniform = *totals;
  uniform.divergent_warp_blocks = 0;
  uniform.divergent_code_bytes = 0;
  const HintJudgement worse = judge_divergence_hint(*totals, uniform);
  CHECK(worse.keep);
  CHECK(worse.comparison == "this run: 50% of the work its warps ran was run by only some "
                            "of their threads; the reference on the same data: 0%");
  CHECK_FALSE(judge_divergence_hint(*totals, *totals).keep);
  CounterTotals slightly = uniform;
  slightly.divergent_code_bytes = 60;  // 3%: not 5 points above the reference's 0%
  CHECK_FALSE(judge_divergence_hint(slightly, uniform).keep);
  CHECK(judge_divergence_hint(uniform, CounterTotals{}).keep);  // no reference figure
  CHECK_THAT(counters_side_by_side(*totals, uniform),
             Contains(", warp divergence 50% of a warp's work in two sampled blocks (reference: 0%)"));
}

TEST_CASE("counts the simulator cannot produce are named, real ones pass", "[sim_counters]") {
  const auto real = parse_sim_counters(kLine);
  REQUIRE(real);
  CHECK(contradictory_counts(*real).empty());
  CounterTotals forged = *real;
  forged.global_sectors = 8;  // "perfectly coalesced", fewer than the bytes need
  CHECK_THAT(contradictory_counts(forged), Contains("8 global sectors, fewer than the 64 the bytes accessed need"));
  forged = *real;
  forged.global_ideal_sectors = 1;
  forged.global_sectors = 2;
  CHECK_THAT(contradictory_counts(forged), Contains("2 global sectors for 16 requests"));
  forged = *real;
  forged.shared_conflict_ways = 1;
  CHECK_THAT(contradictory_counts(forged), Contains("1 shared conflict ways for 4 requests"));
  forged = *real;
  forged.shared_accesses = 3;  // a request is at least one lane's access
  CHECK_THAT(contradictory_counts(forged), Contains("3 shared accesses by lanes for 4 requests"));
  forged = *real;
  forged.global_loads = 4;
  forged.global_stores = 4;
  CHECK_THAT(contradictory_counts(forged), Contains("8 global loads and stores by lanes for 16 requests"));
}
