#pragma once
// Side-by-side measurement (DESIGN invariant 2): baseline and candidate run
// interleaved B C B C ..., the first pairs are warm-up and excluded, each pair gives
// a ratio baseline/candidate, and the verdict uses the median ratio. When the ratios
// spread more than the bound, more pairs are measured until the spread settles, the
// pair limit or the time budget; then the measurement is marked noisy.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "measure/observed_speed.hpp"
#include "result/result.hpp"
#include "spec/lab_spec.hpp"

namespace parlab::grader {

// One timed run: what the harness reported and what the grader observed, on success;
// nullopt with `error` set on failure.
using TimedRun = std::function<std::optional<TimedSample>(std::string& error)>;

struct SideBySide {
  bool ok = false;
  std::string error;           // which side failed and why, when !ok
  bool candidate_failed = false;  // the failure was the candidate's (the student's)
  Measurement measurement;     // thresholds left for the caller to fill; median_ratio is
                               // the reported ratio capped by the observed one
  ObservedSpeed observed;
  std::vector<double> baseline_s;
  std::vector<double> candidate_s;
};

// `elapsed` returns seconds since the measurement started (injectable for tests).
SideBySide measure_side_by_side(const TimedRun& baseline, const TimedRun& candidate,
                                const PerformanceSpec& policy,
                                const std::function<double()>& elapsed);

}  // namespace parlab::grader
