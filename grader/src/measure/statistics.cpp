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

}  // namespace parlab::grader
