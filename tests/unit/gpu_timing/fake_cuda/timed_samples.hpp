#pragma once
// Grades one call as a lab driver would, against the virtual-clock runtime: gpu_timed with
// 1 warm-up and 3 samples on a fresh fake device; the samples it recorded. Shared by the
// two builds of the timing header (unit_gpu_timing and unit_gpu_timing_sim).
#include <vector>

#include "parlab/harness/driver.hpp"
#include "parlab/harness/gpu/gpu_timing.hpp"
#include "scratch_dir.hpp"

namespace fake_cuda {

constexpr double kKernelSeconds = 0.004;

template <class Prepare, class Work>
std::vector<double> timed_samples(Prepare&& prepare, Work&& work, Device device = {}) {
  reset(device);
  parlab::testing::ScratchDir dir;
  parlab::harness::OutputWriter out(dir.path());
  parlab::harness::TaskContext ctx(dir.path(), parlab::Params{}, out, /*warmup=*/1, /*repeat=*/3);
  parlab::harness::gpu::gpu_timed(ctx, "student_call", prepare, work);
  return ctx.samples();
}

}  // namespace fake_cuda
