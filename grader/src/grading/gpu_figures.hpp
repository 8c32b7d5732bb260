#pragma once
// What a GPU run's timings add to a test's result: the phases (the kernels' median
// device time, then each phase the driver timed apart) and the roofline (the achieved
// rate against this device's measured peak). Nothing off a GPU, where times say nothing
// about one. Pure.
#include <optional>
#include <vector>

#include "grading/device_choice.hpp"
#include "grading/lab_runner.hpp"
#include "result/result.hpp"
#include "spec/lab_spec.hpp"

namespace parlab::grader {

std::vector<Phase> gpu_phases(DeviceMode mode, const TestSpec& t, const TaskRun& run);

// `seconds`: the measured median of one call. Nothing when the test asks for no
// roofline, the work or the peak is unknown, or not on a GPU.
std::optional<Roofline> gpu_roofline(DeviceMode mode, const DeviceInfo& device, const TestSpec& t,
                                     const TaskRun& run, double seconds);

}  // namespace parlab::grader
