#include "grading/schedule_check.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>

namespace parlab::grader {

std::string fresh_sim_seed() {
  std::random_device device;
  const std::uint64_t seed = (std::uint64_t{device()} << 32) ^ device();
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(seed));
  return text;
}

int order_reruns() {
  const char* text = std::getenv("PARLAB_SIM_ORDER_RERUNS");
  if (text == nullptr || *text == '\0') return 2;
  char* end = nullptr;
  const long n = std::strtol(text, &end, 10);
  if (*end != '\0' || n < 0 || n > 10) {
    throw std::invalid_argument(std::string("PARLAB_SIM_ORDER_RERUNS must be a number from 0 to 10, not '") +
                                text + "'");
  }
  return static_cast<int>(n);
}

std::string reordered_run_name(const std::string& slug, int n) {
  return slug + "-order-" + std::to_string(n + 1);
}

ComparatorSpec rounding_band(const ComparatorSpec& spec) {
  constexpr double kBand = 100;  // compare/'s "close": within 100x the tolerance
  ComparatorSpec wide = spec;
  wide.rtol *= kBand;
  wide.atol *= kBand;
  wide.max_ulp *= static_cast<std::int64_t>(kBand);
  return wide;
}

std::string order_dependence_advice() {
  return "Look for a thread that reads what another thread writes with no __syncthreads() "
         "between them, an update to a shared value that is not atomic, or a value one block "
         "sets for the others (the result zeroed inside the kernel by block 0: the order blocks "
         "run in is not fixed, so set it before the launch).";
}

bool apply_schedule_check(TestResult& result, const std::string& first_seed,
                          const ReorderedRun& rerun, bool hidden) {
  if (result.status != TestStatus::passed || rerun.same_answer) return false;
  result.status = TestStatus::failed;
  result.points = 0;
  result.message =
      "right answer in one run in the simulator, wrong in another that started the blocks "
      "and their threads in another order: the answer depends on the order threads run in, "
      "and a GPU promises none. " + order_dependence_advice();
  result.message += hidden ? "\nin the other order: wrong result on hidden data"
                           : "\nin the other order: " + rerun.difference;
  result.message += "\n(simulator orders: seed " + first_seed + " right, seed " + rerun.seed +
                    " wrong; PARLAB_SIM_SEED=<seed> repeats one)";
  result.mismatch.reset();
  return true;
}

}  // namespace parlab::grader
