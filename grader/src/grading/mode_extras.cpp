#include "grading/mode_extras.hpp"

#include <stdexcept>

#include "grading/gpu_extras.hpp"
#include "grading/sim_extras.hpp"

namespace parlab::grader {

TestResult ModeExtras::grade_performance(GradingContext&, const TestSpec& t,
                                         const std::map<std::string, TestResult>&) {
  throw std::logic_error("no device mode grades performance test '" + t.name + "' its own way");
}

std::unique_ptr<ModeExtras> make_mode_extras(DeviceMode mode) {
  if (mode == DeviceMode::gpu) return std::make_unique<GpuExtras>();
  if (mode == DeviceMode::sim) return std::make_unique<SimExtras>();
  return std::make_unique<ModeExtras>();
}

}  // namespace parlab::grader
