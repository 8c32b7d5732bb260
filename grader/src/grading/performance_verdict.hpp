#pragma once
// The verdict of one performance test from its side-by-side measurement: points,
// status and the sentence the student reads. Pure (no processes, no clock), so the
// policy is unit-tested on its own: credit never exceeds the ratio the grader observed
// itself, a program whose own timings claim more than that beyond noise earns nothing
// on the test and is reported as "timing not trusted" (measure/observed_speed.hpp),
// a test that requires parallel work earns nothing for work the grader saw done by one
// process (thread) or that a 1-worker run does as fast, and a noisy or disturbed
// measurement is inconclusive only where the points could differ within what the noise
// allows (grading/verdict_bounds): full credit stands, nothing even at the best stands.
#include <string>

#include "measure/side_by_side.hpp"
#include "result/result.hpp"
#include "score/scoring.hpp"
#include "grading/verdict_bounds.hpp"

namespace parlab::grader {

struct PerformanceVerdict {
  TestStatus status = TestStatus::failed;
  double points = 0;
  std::string message;
};

// `m` is the finished measurement (median_ratio already capped by the observation,
// thresholds, work_spread and required_cores filled in); `max_points` the test's points.
PerformanceVerdict performance_verdict(const Measurement& m, const Thresholds& th,
                                       double max_points, const ParallelRule& rule = {});

// The verdict with the thresholds asked on this machine, now (docs/scoring.md, "What the
// reference itself gains here"): where `m.reference_ratio` was measured (a gain test),
// full_at is lowered to `gain_share` of the reference's own gain (score/scoring.hpp,
// within_reference_gain); where that gain is too small to judge, anything short of full
// credit at the spec's thresholds is inconclusive (a timing claim caught still fails).
// Writes the asked thresholds and the spec's full_at into `m`.
PerformanceVerdict gain_test_verdict(Measurement& m, const Thresholds& spec, double gain_share,
                                     double max_points, const ParallelRule& rule = {});

// "2.31x", for messages.
std::string format_ratio(double ratio);

}  // namespace parlab::grader
