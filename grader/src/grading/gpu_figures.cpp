#include "grading/gpu_figures.hpp"

#include "measure/statistics.hpp"

namespace parlab::grader {

std::vector<Phase> gpu_phases(DeviceMode mode, const TestSpec& t, const TaskRun& run) {
  std::vector<Phase> phases;
  if (mode != DeviceMode::gpu || t.device != Device::gpu || run.samples_s.empty()) return phases;
  phases.push_back({run.sample_label.empty() ? "kernels" : run.sample_label,
                    median(run.samples_s)});
  for (const auto& [name, samples] : run.phases_s) phases.push_back({name, median(samples)});
  return phases;
}

std::optional<Roofline> gpu_roofline(DeviceMode mode, const DeviceInfo& device, const TestSpec& t,
                                     const TaskRun& run, double seconds) {
  if (!t.roofline || mode != DeviceMode::gpu || t.device != Device::gpu || !(seconds > 0)) return std::nullopt;
  Roofline r;
  r.bound = t.roofline->bound;
  const bool memory = r.bound == RooflineBound::memory;
  r.unit = memory ? "GB/s" : "GFLOP/s";
  const double work = memory ? run.work_bytes : run.work_flops;
  r.peak = memory ? device.bandwidth_gbs : device.sgemm_gflops;
  if (!(work > 0) || !(r.peak > 0)) return std::nullopt;  // not declared or not measured
  r.achieved = work / seconds / 1e9;
  r.fraction = r.achieved / r.peak;
  if (r.fraction < t.roofline->hint_below) r.hint = t.roofline->hint;
  return r;
}

}  // namespace parlab::grader
