#include "measure/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace parlab::grader {

double quantile(std::vector<double> values, double q) {
  if (values.empty()) throw std::invalid_argument("quantile of no values");
  if (q < 0 || q > 1) throw std::invalid_argument("quantile q must be in [0, 1]");
  std::sort(values.begin(), values.end());
  double pos = q * static_cast<double>(values.size() - 1);
  auto lo = static_cast<std::size_t>(std::floor(pos));
  auto hi = static_cast<std::size_t>(std::ceil(pos));
  double frac = pos - static_cast<double>(lo);
  return values[lo] + (values[hi] - values[lo]) * frac;
}

double median(const std::vector<double>& values) { return quantile(values, 0.5); }

double relative_spread(const std::vector<double>& values) {
  if (values.size() < 2) return 0;
  double m = median(values);
  if (m == 0) return 0;
  return (quantile(values, 0.75) - quantile(values, 0.25)) / std::fabs(m);
}

Interval median_interval(std::vector<double> values, double confidence) {
  if (values.empty()) throw std::invalid_argument("median_interval of no values");
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  // P(X <= k) for X ~ Binomial(n, 1/2), accumulated until it passes the tail.
  const double tail = (1 - confidence) / 2;
  double term = std::pow(0.5, static_cast<double>(n));  // P(X = 0)
  double below = 0;
  std::size_t k = 0;  // largest k with P(X <= k - 1) <= tail: the k-th value (1-based) is low
  while (k < n / 2 && below + term <= tail) {
    below += term;
    term *= static_cast<double>(n - k) / static_cast<double>(k + 1);
    ++k;
  }
  if (k == 0) return {values.front(), values.back()};
  return {values[k - 1], values[n - k]};
}

}  // namespace parlab::grader
