// The harness's GPU timing as the simulator's drivers build it (PARLAB_SIM_DRIVER, set for
// this test program only: tests/CMakeLists.txt), against the virtual-clock runtime of
// tests/unit/gpu_timing/fake_cuda. The simulator has no L2 cache and grades no time, so
// the flush before a sample writes nothing; it still waits for the device, so a sample
// starts after whatever the untimed preparation left running, as on a GPU.
#include <catch2/catch.hpp>

#include "parlab/harness/driver.hpp"
#include "parlab/harness/gpu/gpu_timing.hpp"
#include "scratch_dir.hpp"

#ifndef PARLAB_SIM_DRIVER
#error "this test checks the sim drivers' build of gpu_timing.hpp: PARLAB_SIM_DRIVER must be set"
#endif

using parlab::harness::OutputWriter;
using parlab::Params;
using parlab::harness::TaskContext;
using parlab::harness::gpu::gpu_timed;

namespace {

constexpr double kKernelSeconds = 0.004;

// Grades `work` after `prepare` as a driver would (1 warm-up, 3 samples); the samples.
template <class Prepare, class Work>
std::vector<double> samples_of(Prepare&& prepare, Work&& work) {
  fake_cuda::reset(fake_cuda::Device{});
  parlab::testing::ScratchDir dir;
  OutputWriter out(dir.path());
  TaskContext ctx(dir.path(), Params{}, out, /*warmup=*/1, /*repeat=*/3);
  gpu_timed(ctx, "student_call", prepare, work);
  return ctx.samples();
}

}  // namespace

TEST_CASE("in the simulator the flush allocates and writes nothing") {
  const auto samples = samples_of([] {}, [] { fake_cuda::launch(nullptr, kKernelSeconds); });
  CHECK(samples.size() == 3);
  CHECK(fake_cuda::bytes_allocated() == 0);
  CHECK(fake_cuda::largest_memset() == 0);
}

TEST_CASE("in the simulator a sample starts after the preparation's work on another stream") {
  cudaStream_t side = nullptr;
  auto leaves_work_running = [&] {
    if (side == nullptr) cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    fake_cuda::launch(side, 10 * kKernelSeconds);  // nothing waits for it
  };
  for (double s : samples_of(leaves_work_running, [] { fake_cuda::launch(nullptr, kKernelSeconds); }))
    CHECK(s == Approx(kKernelSeconds).epsilon(1e-3));  // not the side work's 40 ms
}
