#pragma once
// Robust summaries of timing samples: medians and quartiles, never means, because a
// single descheduled run on a noisy machine must not move the verdict.
#include <vector>

namespace parlab::grader {

// Linear-interpolated quantile, q in [0, 1]. Throws std::invalid_argument when empty.
double quantile(std::vector<double> values, double q);
double median(const std::vector<double>& values);
// Interquartile range divided by the median: 0.10 means the middle half of the
// ratios lies within 10% of the median's size. 0 for fewer than 2 values.
double relative_spread(const std::vector<double>& values);

}  // namespace parlab::grader
