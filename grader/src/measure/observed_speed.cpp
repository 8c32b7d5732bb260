#include "measure/observed_speed.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "measure/statistics.hpp"

namespace parlab::grader {
namespace {

// The overhead's noise floor: a few milliseconds of process start-up jitter, a tenth
// of the overhead itself, or twice its observed interquartile range.
constexpr double kMinSlackSeconds = 0.003;
constexpr double kSlackFractionOfOverhead = 0.10;
constexpr double kSlackIqrFactor = 2.0;
// A claimed ratio this far above the cap is a disagreement, not noise. Credit is capped
// anyway, so a smaller lie gains nothing; the margin keeps an honest program whose
// process has a little more untimed work than the baseline's (measured: honest caps
// from 0.995x to over 2x the reported ratio) far from the penalty.
constexpr double kDisagreementFactor = 1.5;
// A candidate whose whole run fits in the overhead noise: nothing bounds its claim.
constexpr double kUnboundedRatio = 1e9;

double work_of(const TimedSample& s) { return s.reported_s * std::max(s.calls, 1); }

}  // namespace

ObservedSpeed observed_speed(const std::vector<TimedSample>& baseline,
                             const std::vector<TimedSample>& candidate,
                             const std::vector<TimedSample>& witness) {
  if (baseline.size() != candidate.size() || baseline.empty()) {
    throw std::invalid_argument("observed_speed needs the same non-zero number of pairs");
  }
  ObservedSpeed out;
  out.witnessed = !witness.empty();
  // The program of the candidate's kind: the witness when there is one, else the baseline.
  const std::vector<TimedSample>& same_kind = out.witnessed ? witness : baseline;
  std::vector<double> overheads;
  std::vector<double> same_kind_work;
  for (const TimedSample& s : same_kind) {
    overheads.push_back(std::max(0.0, s.wall_s - work_of(s)));
    same_kind_work.push_back(work_of(s));
  }
  std::vector<double> base_work;
  for (const TimedSample& b : baseline) base_work.push_back(work_of(b));
  out.overhead_s = median(overheads);
  const double iqr = quantile(overheads, 0.75) - quantile(overheads, 0.25);
  out.slack_s = std::max({kMinSlackSeconds, kSlackFractionOfOverhead * out.overhead_s,
                          kSlackIqrFactor * iqr});
  // Below a few slacks of the timed work a program of this kind does, start-up noise
  // could hide anything.
  out.resolvable = median(same_kind_work) >= 4 * out.slack_s;

  std::vector<double> caps;
  std::vector<double> cores;
  for (std::size_t i = 0; i < candidate.size(); ++i) {
    const double cand_work = candidate[i].wall_s - out.overhead_s - out.slack_s;
    caps.push_back(cand_work > 0 ? base_work[i] / cand_work
                                 : kUnboundedRatio);
    if (candidate[i].wall_s > 0 && candidate[i].cpu_s >= 0) {
      cores.push_back(candidate[i].cpu_s / candidate[i].wall_s);
    }
  }
  out.cap = median(caps);
  out.candidate_cores = cores.empty() ? 0 : median(cores);
  return out;
}

bool claims_beyond_observation(double reported_ratio, const ObservedSpeed& observed) {
  return reported_ratio > observed.cap * kDisagreementFactor;
}

}  // namespace parlab::grader
