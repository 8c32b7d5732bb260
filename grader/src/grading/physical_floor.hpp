#pragma once
// The physical floor of a GPU performance test: no correct call can take less than the
// time this device needs to move the task's bytes at its measured copy bandwidth, or to
// do its arithmetic at its measured SGEMM rate. A median below half of that is not a
// fast kernel but work skipped (a cached answer, a replay, a timer that stopped early):
// the test earns nothing and says which bound it broke. The work is the reference
// driver's declaration for the same task and data (trusted code), not the submission's.
// Pure.
#include <optional>
#include <string>

#include "result/result.hpp"

namespace parlab::grader {

struct PhysicalFloor {
  RooflineBound bound = RooflineBound::memory;  // the larger of the two times
  double seconds = 0;                           // max(bytes / bandwidth, flops / rate)
  double work = 0;                              // bytes or flops, as the bound says
  double peak = 0;                              // GB/s or GFLOP/s measured on this device
};

// Nothing when neither the work nor the device's peaks are known.
std::optional<PhysicalFloor> physical_floor(const DeviceInfo& device, double work_bytes,
                                            double work_flops);

// A median below this share of the floor is impossible on this device.
inline constexpr double kFloorShare = 0.5;

// The sentence appended to the test's message when `median_s` broke the floor, or
// nothing when it did not.
std::optional<std::string> below_floor_sentence(const PhysicalFloor& floor, double median_s);

}  // namespace parlab::grader
