#include "batch/eta_estimate.hpp"

#include <algorithm>
#include <cmath>

namespace parlab::grader::batch {

std::optional<double> eta_seconds(const EtaInputs& in) {
  const int left = in.total - in.done;
  if (left <= 0) return 0.0;
  if (in.graded <= 0) return std::nullopt;
  const double typical = in.graded_seconds_sum / in.graded;
  const double rounds = std::ceil(static_cast<double>(left) / std::max(1, in.jobs));
  const double by_duration = typical * rounds;
  const double by_rate = in.done > 0 ? in.elapsed_seconds / in.done * left : 0.0;
  return std::max(by_duration, by_rate);
}

}  // namespace parlab::grader::batch
