#include "grading/physical_floor.hpp"

#include <cstdio>

namespace parlab::grader {

std::optional<PhysicalFloor> physical_floor(const DeviceInfo& device, double work_bytes,
                                            double work_flops) {
  const bool memory_known = work_bytes > 0 && device.bandwidth_gbs > 0;
  const bool compute_known = work_flops > 0 && device.sgemm_gflops > 0;
  if (!memory_known && !compute_known) return std::nullopt;
  const double memory_s = memory_known ? work_bytes / (device.bandwidth_gbs * 1e9) : 0;
  const double compute_s = compute_known ? work_flops / (device.sgemm_gflops * 1e9) : 0;
  if (memory_s >= compute_s) {
    return PhysicalFloor{RooflineBound::memory, memory_s, work_bytes, device.bandwidth_gbs};
  }
  return PhysicalFloor{RooflineBound::compute, compute_s, work_flops, device.sgemm_gflops};
}

std::optional<std::string> below_floor_sentence(const PhysicalFloor& floor, double median_s) {
  if (!(median_s >= 0) || median_s >= kFloorShare * floor.seconds) return std::nullopt;
  const bool memory = floor.bound == RooflineBound::memory;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "; faster than this GPU can go: a call took %.3f ms, but %s %.3g %s at the "
                "%.0f %s this GPU measured takes at least %.3f ms, so the work was not done "
                "in the timed call (an answer kept from an earlier call, or work left to run "
                "after it) and this test earns nothing",
                median_s * 1e3, memory ? "moving" : "computing", floor.work,
                memory ? "bytes" : "floating-point operations", floor.peak,
                memory ? "GB/s" : "GFLOP/s", floor.seconds * 1e3);
  return std::string(buf);
}

}  // namespace parlab::grader
