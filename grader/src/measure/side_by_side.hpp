#pragma once
// Side-by-side measurement (DESIGN invariant 2): baseline and candidate run as pairs,
// in alternating order B C, C B, B C ... so neither side always runs second (on a warm
// or a throttled machine); the first pairs are warm-up and excluded, each pair gives
// a ratio baseline/candidate, and the verdict uses the median ratio. A pair during
// which other programs kept more than `max_other_load` cores busy is set aside as
// disturbed. When the quiet pairs' ratios spread more than the bound, more pairs are
// measured until the spread settles, the pair limit or the time budget; then the
// measurement is marked noisy. Too few quiet pairs: the measurement is disturbed. A gain
// test adds the reference's own candidate task to every pair.
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

// What the caller adds to the pairs (both optional).
struct SideBySideExtras {
  // The reference's own candidate task, run `witness_runs` times after the pairs when the
  // baseline is another kind of program (measure/observed_speed.hpp); empty: none. Its
  // median against the baseline's is then the measurement's reference_ratio.
  TimedRun witness;
  int witness_runs = 5;
  // A gain test's reference run: the reference's own candidate task, run in every pair
  // (six orders in turn: each run takes each place and comes beside the candidate
  // equally often); its ratio to the baseline is what this machine lets the reference gain
  // (score/scoring.hpp, within_reference_gain). Empty: none.
  TimedRun reference_candidate;
  // Cores other programs may keep busy before a pair is set aside (measure/other_load.hpp);
  // < 0: the policy's max_other_load as it stands.
  double allowed_other_load = -1;
  // The ratio at or below which a test earns nothing (its zero_at, which no rule moves):
  // once min_pairs quiet pairs put the whole 95 % interval of the median there, more
  // pairs cannot earn a point, and measuring stops (marked noisy where the spread is
  // still wide, so the verdict reads the interval). 0: never.
  double earns_nothing_at = 0;
  // The work spread the test's parallel rule asks (its min_spread; 0: none). Once more
  // than half of the most pairs that can be used showed less, their median cannot reach
  // it: the speed earns nothing whatever the ratio, and measuring stops (marked noisy,
  // as above). A serial submission's parallel test no longer waits out every pair.
  double spread_required = 0;
};

struct SideBySide {
  bool ok = false;
  std::string error;           // which side failed and why, when !ok
  bool candidate_failed = false;  // the failure was the candidate's (the student's)
  bool witness_failed = false;    // the reference's witness or reference run failed (not the student's)
  Measurement measurement;     // thresholds left for the caller to fill; median_ratio is
                               // the reported ratio capped by the observed one
  ObservedSpeed observed;
  std::vector<double> baseline_s;
  std::vector<double> candidate_s;
  std::vector<double> candidate_wall_s;  // observed by the grader, pairs used
  std::vector<double> baseline_wall_s;   // likewise
  std::vector<double> reference_wall_s;  // a gain test's reference runs, likewise
  int disturbed_pairs = 0;     // set aside: other programs were busy meanwhile
  bool disturbed = false;      // fewer than 3 quiet pairs: the verdict cannot be trusted
};

// `elapsed` returns seconds since the measurement started (injectable for tests).
SideBySide measure_side_by_side(const TimedRun& baseline, const TimedRun& candidate,
                                const PerformanceSpec& policy,
                                const std::function<double()>& elapsed,
                                const SideBySideExtras& extras = {});

}  // namespace parlab::grader
