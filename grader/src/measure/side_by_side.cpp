#include "measure/side_by_side.hpp"

#include <algorithm>
#include <cstdio>

#include "measure/statistics.hpp"

namespace parlab::grader {
namespace {

struct Pair {
  TimedSample baseline;
  TimedSample candidate;
  double ratio() const {
    // A zero time cannot be a ratio; clamp to the clock's resolution.
    return baseline.reported_s / std::max(candidate.reported_s, 1e-9);
  }
  double others_cores() const { return std::max(baseline.others_cores, candidate.others_cores); }
};

std::vector<double> ratios_of(const std::vector<Pair>& pairs) {
  std::vector<double> r;
  for (const Pair& p : pairs) r.push_back(p.ratio());
  return r;
}

// "other programs kept 0.98 cores busy (median over the 5 disturbed pairs; ...)".
std::string interference_text(const std::vector<Pair>& disturbed, std::size_t quiet) {
  std::vector<double> load;
  for (const Pair& p : disturbed) load.push_back(p.others_cores());
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "other programs (or the hypervisor) kept %.2f cores busy (median over the %zu "
                "disturbed pairs; %zu of %zu pairs were quiet)",
                median(load), disturbed.size(), quiet, quiet + disturbed.size());
  return buf;
}

// Medians of what the grader saw of the candidate's process tree.
void observe_parallelism(const std::vector<Pair>& pairs, const PerformanceSpec& policy,
                         Measurement& m) {
  std::vector<double> spread, processes, threads;
  for (const Pair& p : pairs) {
    const TimedSample& c = p.candidate;
    if (c.processes <= 0) continue;
    spread.push_back(policy.parallel == ParallelKind::processes ? c.process_spread : c.thread_spread);
    processes.push_back(c.processes);
    threads.push_back(c.threads);
  }
  if (spread.empty()) return;
  m.work_spread = median(spread);
  m.candidate_processes = static_cast<int>(median(processes) + 0.5);
  m.candidate_threads = static_cast<int>(median(threads) + 0.5);
}

}  // namespace

SideBySide measure_side_by_side(const TimedRun& baseline, const TimedRun& candidate,
                                const PerformanceSpec& policy,
                                const std::function<double()>& elapsed,
                                const SideBySideExtras& extras) {
  SideBySide out;
  const double allowed_load =
      extras.allowed_other_load >= 0 ? extras.allowed_other_load : policy.max_other_load;
  Measurement& m = out.measurement;
  m.warmup_pairs = policy.warmup_pairs;

  int index = 0;
  auto one_pair = [&](Pair& pair) {
    std::string err;
    auto run_baseline = [&] {
      auto tb = baseline(err);
      if (!tb) out.error = "baseline run failed: " + err;
      else pair.baseline = *tb;
      return tb.has_value();
    };
    auto run_candidate = [&] {
      auto tc = candidate(err);
      if (!tc) {
        out.error = err;
        out.candidate_failed = true;
      } else {
        pair.candidate = *tc;
      }
      return tc.has_value();
    };
    const bool baseline_first = index++ % 2 == 0;  // B C, C B, B C, ...
    return baseline_first ? run_baseline() && run_candidate() : run_candidate() && run_baseline();
  };

  for (int i = 0; i < policy.warmup_pairs; ++i) {
    Pair warmup;
    if (!one_pair(warmup)) return out;
  }
  std::vector<Pair> quiet;
  std::vector<Pair> disturbed;
  while (true) {
    Pair pair;
    if (!one_pair(pair)) return out;
    if (pair.others_cores() > allowed_load) {
      disturbed.push_back(pair);
    } else {
      quiet.push_back(pair);
    }
    const int pairs = static_cast<int>(quiet.size() + disturbed.size());
    const bool over_budget = elapsed() >= policy.budget_seconds;
    const bool out_of_pairs = pairs >= policy.max_pairs || over_budget;
    // Under a steady load re-measuring does not help: give up after as many disturbed
    // pairs as a quiet measurement would take.
    if (quiet.size() < 3) {
      if (out_of_pairs || static_cast<int>(disturbed.size()) >= policy.min_pairs) break;
      continue;
    }
    // Three pairs is the least a median and a spread mean anything for; past the
    // budget we settle for them rather than keep a class waiting.
    if (static_cast<int>(quiet.size()) < policy.min_pairs && !out_of_pairs) continue;
    m.spread = relative_spread(ratios_of(quiet));
    if (m.spread <= policy.max_spread) break;
    if (out_of_pairs) {
      m.noisy = true;
      break;
    }
  }
  out.disturbed_pairs = static_cast<int>(disturbed.size());
  out.disturbed = quiet.size() < 3;
  // The verdict uses the quiet pairs; with too few of them, every pair is shown and
  // the caller decides (inconclusive unless even that earns full credit).
  std::vector<Pair> used = quiet;
  if (out.disturbed) {
    used.insert(used.end(), disturbed.begin(), disturbed.end());
    m.spread = relative_spread(ratios_of(used));
    m.interference = interference_text(disturbed, quiet.size());
  }
  m.ratios = ratios_of(used);
  std::vector<TimedSample> base_seen, cand_seen;
  for (const Pair& p : used) {
    out.baseline_s.push_back(p.baseline.reported_s);
    out.candidate_s.push_back(p.candidate.reported_s);
    out.candidate_wall_s.push_back(p.candidate.wall_s);
    base_seen.push_back(p.baseline);
    cand_seen.push_back(p.candidate);
  }
  m.reported_ratio = median(m.ratios);
  const Interval ci = median_interval(m.ratios);
  m.baseline_median_s = median(out.baseline_s);
  m.candidate_median_s = median(out.candidate_s);
  // The start-up every program of the candidate's kind pays, where the baseline is
  // another kind: seen in the reference's own runs of the candidate's task.
  std::vector<TimedSample> witness_seen;
  for (int i = 0; extras.witness && i < extras.witness_runs; ++i) {
    std::string err;
    auto seen = extras.witness(err);
    if (!seen) {
      out.error = "the reference's own run of the candidate's task failed: " + err;
      out.witness_failed = true;
      return out;
    }
    witness_seen.push_back(*seen);
  }
  // Credit never exceeds what the grader saw itself (measure/observed_speed.hpp).
  out.observed = observed_speed(base_seen, cand_seen, witness_seen);
  m.observed_cap = out.observed.cap;
  m.overhead_s = out.observed.overhead_s;
  m.candidate_cores = out.observed.candidate_cores;
  m.timing_trusted = !claims_beyond_observation(m.reported_ratio, out.observed);
  m.median_ratio = std::min(m.reported_ratio, out.observed.cap);
  m.ratio_low = std::min(ci.low, m.median_ratio);
  m.ratio_high = std::min(ci.high, out.observed.cap);
  observe_parallelism(used, policy, m);
  out.ok = true;
  return out;
}

}  // namespace parlab::grader
