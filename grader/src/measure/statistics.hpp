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

// A distribution-free confidence interval of the median (order statistics: the
// number of values below the true median is Binomial(n, 1/2)). With fewer than 6
// values no pair of order statistics reaches 95 %: the interval is [min, max].
struct Interval {
  double low = 0;
  double high = 0;
};
Interval median_interval(std::vector<double> values, double confidence = 0.95);

}  // namespace parlab::grader
