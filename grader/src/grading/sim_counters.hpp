#pragma once
// Scored counter checks in sim mode (docs/simulation.md, "Scored counter checks"): a GPU
// performance test with a [tests.sim] table is graded, without a GPU, by one of the
// simulator's memory-access counters measured on the submission and on the reference,
// same task, same small dataset. The counters file is written by the child process
// (the submission's: untrusted; the reference's: trusted but read the same way):
// read through ChildRunFiles (no links, capped), parsed line by line, malformed lines
// skipped, numbers bounded.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "parlab_sim/launch_counts.hpp"
#include "result/result.hpp"
#include "spec/lab_spec.hpp"

namespace parlab::grader {

// Where, relative to the child's run folder, the simulator writes one JSON line per
// kernel launch (PARLAB_SIM_COUNTERS_FILE): inside the output folder ChildRunFiles reads.
inline constexpr const char* kSimCountersFile = "sim-counters.jsonl";
inline constexpr std::uint64_t kSimCountersFileCap = 256 << 10;

// A run's totals (every block of every launch counted), summed over its launches: the
// fields of the record the runtime writes for each launch (parlab_sim/launch_counts.hpp,
// one definition for both sides), and how many launches.
struct CounterTotals : parlab_sim::LaunchCounts {
  std::uint64_t launches = 0;
};

// Why totals cannot come from the simulator (every request touches at least one sector,
// never fewer than its bytes need; every shared request is at least 1-way), or empty. The
// file lies in the submission's run folder: a crude forgery shows here.
std::string contradictory_counts(const CounterTotals& totals);

// Sums the file's lines; nothing when no line is valid (no kernel launched, or the
// counters were off).
std::optional<CounterTotals> parse_sim_counters(const std::string& text);

// The same per kernel, in the order the kernels first ran (the run's last line, which
// sums launches of any kernel, is none of them).
std::vector<std::pair<std::string, CounterTotals>> sim_counters_by_kernel(const std::string& text);

// The named counter (SimCheckSpec::counter) over the outputs' `output_elements`: a total
// of the run per element the task must produce, so useless work only raises it. Nothing
// without outputs, or for a global counter without a global request (the work was done
// on the host).
std::optional<double> counter_value(const CounterTotals& totals, SimCounter counter,
                                    std::uint64_t output_elements);

// Whether the program's host code did work the reference's does not: its instrumented
// code (the CUDA files) read or wrote memory outside kernels more than the reference's
// did, by more than kHostAccessSlack per output element. Computing the answer on the CPU
// needs at least a load of every input and a store of every output (a few per element
// even with the widest vector instructions); an honest program's host code launches
// kernels and touches memory a fixed handful of times per launch. A kernel's figures say
// nothing of host work, so without this a program that copied the inputs back, computed
// the answer on the CPU and copied it to the output with a kernel would score as a
// kernel that loads almost nothing.
inline constexpr double kHostAccessSlack = 1.0 / 64;
bool host_did_task_work(const CounterTotals& candidate, const CounterTotals& reference,
                        std::uint64_t output_elements);

// Whether the submission's kernels ran on few threads: fewer threads of a warp took part
// in its global memory requests, on average, than kMinLaneShare of the reference's. A
// kernel whose work one thread (or a few) does, keeping what it loaded in its own local
// arrays, loads each input once and shows better reuse than any tile, while on a GPU it
// runs one lane of the machine's thousands; the scored figures count memory traffic per
// output and cannot tell. Padding the average up with full-warp loads adds to that traffic
// (a load per lane), which the scored counter then counts. Honest kernels' warps are full
// (the references': 32 threads a request) or half full (4 x 4 blocks: 16).
inline constexpr double kMinLaneShare = 0.5;
bool ran_on_few_threads(const CounterTotals& candidate, const CounterTotals& reference);

// Whether the submission's kernels made more than kMaxRequestRatio times the reference's
// memory requests (global and shared, one per warp and instruction) per output element.
// A request is an instruction a warp issues once for all its lanes: the closest the
// counters come to time. A block that stages tiles in shared memory with every thread
// (full global requests, as the reference's) and lets one thread compute the tile from
// them makes a shared request per multiply-add where the reference's warps make one per
// 32; on lab05 that is about 30 times the reference's. Padding only adds requests. Honest
// kernels make about as many as the reference (an untiled matmul's global loads stand in
// for the tile's shared ones; wider loads and register blocking make fewer).
inline constexpr double kMaxRequestRatio = 4.0;
std::optional<double> requests_per_output(const CounterTotals& totals, std::uint64_t output_elements);
bool made_many_requests(const CounterTotals& candidate, const CounterTotals& reference,
                        std::uint64_t output_elements);

// Averages per request or instruction, shown beside the scored figure and used to judge
// hints, never scored: padding with cheap requests improves them. Nothing without a
// denominator; a run with no shared request has 1-way conflicts.
std::optional<double> sectors_per_request(const CounterTotals& totals);
std::optional<double> threads_per_request(const CounterTotals& totals);  // global requests
std::optional<double> threads_per_shared_request(const CounterTotals& totals);
std::optional<double> sectors_over_ideal(const CounterTotals& totals);
std::optional<double> loads_per_store(const CounterTotals& totals);
double conflict_ways_per_request(const CounterTotals& totals);

// Warp divergence (not a scored counter): the share of the work of the sampled warps
// (code block length x runs) that only some of a warp's lanes ran, 0 to 1; nothing
// without code counted.
std::optional<double> warp_divergence_share(const CounterTotals& totals);

// A figure as the messages show it, to one decimal: "31.8".
std::string one_decimal(double value);

// "global traffic in bytes per output element", ...
std::string counter_label(SimCounter counter);

// Scores `result` (max_points set) by candidate / reference against the check's
// thresholds: status passed / partial / failed, points, and a message that shows both
// figures ("global traffic in bytes per output element: 64.0 (reference: 8.0) ...").
void score_sim_check(const SimCheckSpec& check, double candidate, double reference,
                     TestResult& result);

// A memory-access hint of a correctness test judged against the reference's run on the
// same data (docs/simulation.md, "Findings"): its kind's figure over the whole run
// (global: sectors over the ideal; shared: conflict ways) must be at least 1.25x the
// reference's to be shown; `comparison` gives both ("this run: 8.0 global sectors over
// the fewest needed (reference: 1.0)").
struct HintJudgement {
  bool keep = true;
  std::string comparison;
};
HintJudgement judge_memory_hint(bool shared, const CounterTotals& mine,
                                const CounterTotals& reference);

// A warp-divergence hint judged the same way: its share of divergent work over the whole
// run must be at least twice the reference's and 5 points above it ("this run: 50% of
// the work its warps ran was run by only some of their threads; the reference on the
// same data: 0%").
HintJudgement judge_divergence_hint(const CounterTotals& mine, const CounterTotals& reference);

// One line with the per-request figures of both runs, for the message: "counters of
// every block: global sectors per request 32.0 (reference: 4.0), ...".
std::string counters_side_by_side(const CounterTotals& candidate, const CounterTotals& reference);

}  // namespace parlab::grader
