#include "grading/sim_counters.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

#include "parlab_sim/code_block_counts.hpp"
#include "parlab_sim/instruction_counts.hpp"
#include "score/scoring.hpp"

namespace parlab::grader {
namespace {

constexpr std::size_t kMaxLines = 4096;
constexpr std::uint64_t kMaxField = std::uint64_t{1} << 40;  // far above any total of a check's small run

// A non-negative integer field, bounded; nothing when absent or not one.
std::optional<std::uint64_t> count_field(const nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_number_unsigned()) return std::nullopt;
  const std::uint64_t value = it->get<std::uint64_t>();
  if (value > kMaxField) return std::nullopt;
  return value;
}

// A share (0 to 1) as a whole percentage: "48%".
std::string percent(double share) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f%%", 100.0 * share);
  return text;
}

}  // namespace

std::string one_decimal(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

std::string contradictory_counts(const CounterTotals& t) {
  if (t.global_sectors < t.global_ideal_sectors) {
    return std::to_string(t.global_sectors) + " global sectors, fewer than the " +
           std::to_string(t.global_ideal_sectors) + " the bytes accessed need";
  }
  if (t.global_sectors < t.global_requests) {
    return std::to_string(t.global_sectors) + " global sectors for " +
           std::to_string(t.global_requests) + " requests";
  }
  if (t.global_loads + t.global_stores < t.global_requests) {
    return std::to_string(t.global_loads + t.global_stores) + " global loads and stores by lanes for " +
           std::to_string(t.global_requests) + " requests";
  }
  if (t.shared_accesses < t.shared_requests) {
    return std::to_string(t.shared_accesses) + " shared accesses by lanes for " +
           std::to_string(t.shared_requests) + " requests";
  }
  if (t.shared_conflict_ways < t.shared_requests) {
    return std::to_string(t.shared_conflict_ways) + " shared conflict ways for " +
           std::to_string(t.shared_requests) + " requests";
  }
  return "";
}

namespace {

using parlab_sim::CountGroup;
using parlab_sim::LaunchCounts;

// One line's record: every access count, and the divergence counts when all are there
// and consistent (else left at 0: a build without the coverage hook, or a forged line).
std::optional<LaunchCounts> read_launch_counts(const nlohmann::json& object) {
  LaunchCounts counts;
  bool divergence_whole = true;
  for (const parlab_sim::CountField& field : parlab_sim::kLaunchCountFields) {
    const auto value = count_field(object, std::string(field.name).c_str());
    if (!value && field.group == CountGroup::accesses) return std::nullopt;
    if (!value && field.group == CountGroup::divergence) divergence_whole = false;
    if (value) counts.*field.member = *value;
  }
  const bool consistent = counts.divergent_warp_blocks <= counts.warp_blocks &&
                          counts.divergent_warps <= counts.warps &&
                          counts.divergent_code_bytes <= counts.code_bytes;
  if (!divergence_whole || !consistent) {
    for (const parlab_sim::CountField& field : parlab_sim::kLaunchCountFields) {
      if (field.group == CountGroup::divergence) counts.*field.member = 0;
    }
  }
  return counts;
}

}  // namespace

namespace {

// Each launch line's counts, with its kernel's name, in the file's order.
template <typename Visit>
void for_each_launch_line(const std::string& text, Visit visit) {
  std::istringstream lines(text);
  std::string line;
  std::size_t seen = 0;
  while (seen++ < kMaxLines && std::getline(lines, line)) {
    const nlohmann::json object = nlohmann::json::parse(line, nullptr, false);
    // A record of an instruction or a code block (grading/memory_hints, divergence_hint)
    // is no launch.
    if (!object.is_object() || !object.contains(std::string(parlab_sim::kLaunchKernelKey)) ||
        object.contains(std::string(parlab_sim::kInstructionOffsetKey)) ||
        object.contains(std::string(parlab_sim::kCodeBlockOffsetKey))) {
      continue;
    }
    const nlohmann::json& kernel = object.at(std::string(parlab_sim::kLaunchKernelKey));
    if (!kernel.is_string()) continue;
    if (const std::optional<LaunchCounts> counts = read_launch_counts(object)) visit(kernel.get<std::string>(), *counts);
  }
}

void add_line(CounterTotals& totals, const LaunchCounts& counts) {
  // The run's last line sums launches past the runtime's line limit (threads: theirs)
  // and host accesses; with no launch in it, it is none.
  if (counts.threads != 0) ++totals.launches;
  for (const parlab_sim::CountField& field : parlab_sim::kLaunchCountFields) {
    totals.*field.member += counts.*field.member;
  }
}

}  // namespace

std::optional<CounterTotals> parse_sim_counters(const std::string& text) {
  CounterTotals totals;
  for_each_launch_line(text, [&totals](const std::string&, const LaunchCounts& counts) { add_line(totals, counts); });
  if (totals.launches == 0) return std::nullopt;
  return totals;
}

std::vector<std::pair<std::string, CounterTotals>> sim_counters_by_kernel(const std::string& text) {
  std::vector<std::pair<std::string, CounterTotals>> kernels;
  for_each_launch_line(text, [&kernels](const std::string& kernel, const LaunchCounts& counts) {
    if (kernel == parlab_sim::kLaunchTailName) return;  // launches of any kernel, summed
    auto it = std::find_if(kernels.begin(), kernels.end(), [&](const auto& k) { return k.first == kernel; });
    if (it == kernels.end()) it = kernels.insert(kernels.end(), {kernel, CounterTotals{}});
    add_line(it->second, counts);
  });
  return kernels;
}

std::optional<double> counter_value(const CounterTotals& t, SimCounter counter,
                                    std::uint64_t output_elements) {
  if (output_elements == 0) return std::nullopt;
  const auto per_output = [output_elements](double total) {
    return total / static_cast<double>(output_elements);
  };
  switch (counter) {
    case SimCounter::global_bytes_per_output:
      if (t.global_requests == 0) return std::nullopt;
      return per_output(32.0 * static_cast<double>(t.global_sectors));
    case SimCounter::global_loads_per_output:
      if (t.global_requests == 0) return std::nullopt;
      return per_output(static_cast<double>(t.global_loads));
    case SimCounter::shared_passes_per_output:
      return per_output(static_cast<double>(t.shared_conflict_ways));
  }
  return std::nullopt;
}

bool host_did_task_work(const CounterTotals& candidate, const CounterTotals& reference,
                        std::uint64_t output_elements) {
  const double slack = kHostAccessSlack * static_cast<double>(output_elements);
  return static_cast<double>(candidate.host_accesses) >
         static_cast<double>(reference.host_accesses) + slack;
}

bool ran_on_few_threads(const CounterTotals& candidate, const CounterTotals& reference) {
  const std::optional<double> mine = threads_per_request(candidate);
  const std::optional<double> theirs = threads_per_request(reference);
  return mine && theirs && *mine < kMinLaneShare * *theirs;
}

std::optional<double> requests_per_output(const CounterTotals& t, std::uint64_t output_elements) {
  if (output_elements == 0 || t.global_requests + t.shared_requests == 0) return std::nullopt;
  return static_cast<double>(t.global_requests + t.shared_requests) /
         static_cast<double>(output_elements);
}

bool made_many_requests(const CounterTotals& candidate, const CounterTotals& reference,
                        std::uint64_t output_elements) {
  const std::optional<double> mine = requests_per_output(candidate, output_elements);
  const std::optional<double> theirs = requests_per_output(reference, output_elements);
  return mine && theirs && *mine > kMaxRequestRatio * *theirs;
}

std::optional<double> threads_per_request(const CounterTotals& t) {
  if (t.global_requests == 0) return std::nullopt;
  return static_cast<double>(t.global_loads + t.global_stores) /
         static_cast<double>(t.global_requests);
}

std::optional<double> threads_per_shared_request(const CounterTotals& t) {
  if (t.shared_requests == 0) return std::nullopt;
  return static_cast<double>(t.shared_accesses) / static_cast<double>(t.shared_requests);
}

std::optional<double> sectors_per_request(const CounterTotals& t) {
  if (t.global_requests == 0) return std::nullopt;
  return static_cast<double>(t.global_sectors) / static_cast<double>(t.global_requests);
}

std::optional<double> sectors_over_ideal(const CounterTotals& t) {
  if (t.global_ideal_sectors == 0) return std::nullopt;
  return static_cast<double>(t.global_sectors) / static_cast<double>(t.global_ideal_sectors);
}

std::optional<double> loads_per_store(const CounterTotals& t) {
  if (t.global_stores == 0) return std::nullopt;
  return static_cast<double>(t.global_loads) / static_cast<double>(t.global_stores);
}

double conflict_ways_per_request(const CounterTotals& t) {
  if (t.shared_requests == 0) return 1.0;
  return static_cast<double>(t.shared_conflict_ways) / static_cast<double>(t.shared_requests);
}

std::optional<double> warp_divergence_share(const CounterTotals& t) {
  if (t.code_bytes == 0) return std::nullopt;
  return static_cast<double>(t.divergent_code_bytes) / static_cast<double>(t.code_bytes);
}

std::string counter_label(SimCounter counter) {
  switch (counter) {
    case SimCounter::global_bytes_per_output:
      return "global traffic in bytes per output element";
    case SimCounter::global_loads_per_output: return "global loads per output element";
    case SimCounter::shared_passes_per_output:
      return "shared-memory passes per output element";
  }
  return to_string(counter);
}

void score_sim_check(const SimCheckSpec& check, double candidate, double reference,
                     TestResult& result) {
  // Lower is better: the fraction is that of reference / candidate against the inverted
  // thresholds (full credit at candidate <= full_at x reference).
  const double fraction =
      candidate > 0 && reference > 0
          ? performance_fraction(reference / candidate, {1.0 / check.full_at, 1.0 / check.zero_at})
          : (candidate <= reference ? 1.0 : 0.0);
  result.points = round_points(result.max_points * fraction);
  result.status = fraction >= 1.0  ? TestStatus::passed
                  : fraction > 0.0 ? TestStatus::partial
                                   : TestStatus::failed;
  result.message = "simulator counters: " + counter_label(check.counter) + ": " +
                   one_decimal(candidate) + " (reference: " + one_decimal(reference) +
                   "); full marks at " + one_decimal(check.full_at * reference) + " or less, none at " +
                   one_decimal(check.zero_at * reference) + " or more";
  if (result.status != TestStatus::passed && !check.hint.empty())
    result.message += "\n" + check.hint;
  // The same figures for a reader of result.json (docs/result-schema.md, "Counter").
  Measurement m;
  m.baseline = "reference";
  m.candidate = "submission";
  m.counter = CounterMeasurement{.counter = to_string(check.counter),
                                 .what = counter_label(check.counter),
                                 .value = candidate,
                                 .reference = reference,
                                 .ratio = reference > 0 ? candidate / reference : 0,
                                 .full_at = check.full_at,
                                 .zero_at = check.zero_at};
  result.measurement = std::move(m);
}

HintJudgement judge_memory_hint(bool shared, const CounterTotals& mine,
                                const CounterTotals& reference) {
  const auto value = shared ? conflict_ways_per_request(mine) : sectors_over_ideal(mine);
  const auto theirs =
      shared ? conflict_ways_per_request(reference) : sectors_over_ideal(reference);
  if (!value || !theirs) return {};
  HintJudgement j;
  j.keep = *value >= 1.25 * *theirs;
  j.comparison = std::string("this run: ") + one_decimal(*value) + " " +
                 (shared ? "bank-conflict ways per shared request"
                         : "global sectors over the fewest needed") +
                 " (reference on the same data: " + one_decimal(*theirs) + ")";
  return j;
}

HintJudgement judge_divergence_hint(const CounterTotals& mine, const CounterTotals& reference) {
  const auto value = warp_divergence_share(mine);
  const auto theirs = warp_divergence_share(reference);
  if (!value || !theirs) return {};
  HintJudgement j;
  // Clearly worse only: which blocks are sampled differs with the block shape, so a
  // handout-style heat kernel (16 x 16 blocks) measures 26% where the reference's 32 x 8
  // measures 18% for the same bounds and boundary branches every solution has; the
  // textbook's interleaved reduction measures 14% beside the reference tree's 4%.
  j.keep = *value >= 2.0 * *theirs && *value - *theirs >= 0.05;
  j.comparison = "this run: " + percent(*value) +
                 " of the work its warps ran was run by only some of their threads; the "
                 "reference on the same data: " + percent(*theirs);
  return j;
}

std::string counters_side_by_side(const CounterTotals& candidate, const CounterTotals& reference) {
  std::string line = "counters of every block:";
  const char* sep = " ";
  using Figure = std::optional<double> (*)(const CounterTotals&);
  const std::pair<const char*, Figure> figures[] = {
      {"global sectors per request", sectors_per_request},
      {"threads per global request", threads_per_request},
      {"threads per shared request", threads_per_shared_request},
      {"global loads per global store", loads_per_store},
      {"shared bank-conflict ways per request",
       [](const CounterTotals& t) -> std::optional<double> { return conflict_ways_per_request(t); }},
  };
  for (const auto& [label, of] : figures) {
    const auto mine = of(candidate);
    const auto theirs = of(reference);
    if (!mine && !theirs) continue;
    line += sep + std::string(label) + " " + (mine ? one_decimal(*mine) : "-") +
            " (reference: " + (theirs ? one_decimal(*theirs) : "-") + ")";
    sep = ", ";
  }
  line += sep + std::string("memory accesses of host code ") + std::to_string(candidate.host_accesses) +
          " (reference: " + std::to_string(reference.host_accesses) + ")";
  const auto mine = warp_divergence_share(candidate);
  const auto theirs = warp_divergence_share(reference);
  if (mine || theirs) {
    line += sep + std::string("warp divergence ") + (mine ? percent(*mine) : "-") +
            " of a warp's work in two sampled blocks (reference: " + (theirs ? percent(*theirs) : "-") + ")";
  }
  return line;
}

}  // namespace parlab::grader
