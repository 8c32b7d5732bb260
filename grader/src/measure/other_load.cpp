#include "measure/other_load.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace parlab::grader {

double allowed_other_load(double max_other_load, int test_cores, int machine_cpus) {
  if (!(max_other_load > 0)) {
    throw std::invalid_argument("max_other_load must be > 0 cores, got " +
                                std::to_string(max_other_load));
  }
  if (test_cores < 1 || machine_cpus < 1) {
    throw std::invalid_argument("core counts must be >= 1 (test uses " +
                                std::to_string(test_cores) + ", machine has " +
                                std::to_string(machine_cpus) + ")");
  }
  // A grader limited to fewer cores than the test's workers still runs on test_cores
  // at most; a machine never has fewer CPUs than the test keeps busy.
  const int used = std::min(test_cores, machine_cpus);
  const double own_share = std::max(max_other_load, max_other_load / 2 * used);
  constexpr double kIdleCoreWeight = 0.5;  // idle cores still share memory and caches
  return own_share + static_cast<double>(machine_cpus - used) * kIdleCoreWeight;
}

int cores_used_by_test(int workers, int available_cores) {
  return std::max(1, std::min(workers > 0 ? workers : 1, std::max(available_cores, 1)));
}

}  // namespace parlab::grader
