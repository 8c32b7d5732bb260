// The harness's GPU timing as the simulator's drivers build it (PARLAB_SIM_DRIVER, set for
// this test program only: tests/CMakeLists.txt), against the virtual-clock runtime of
// tests/unit/gpu_timing/fake_cuda. The simulator has no L2 cache and grades no time, so
// the flush before a sample writes nothing; it still waits for the device, so a sample
// starts after whatever the untimed preparation left running, as on a GPU.
#include <catch2/catch.hpp>

#include "timed_samples.hpp"

#ifndef PARLAB_SIM_DRIVER
#error "this test checks the sim drivers' build of gpu_timing.hpp: PARLAB_SIM_DRIVER must be set"
#endif

using fake_cuda::kKernelSeconds;
using fake_cuda::timed_samples;

TEST_CASE("in the simulator the flush allocates and writes nothing") {
  const auto samples = timed_samples([] {}, [] { fake_cuda::launch(nullptr, kKernelSeconds); });
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
  for (double s : timed_samples(leaves_work_running, [] { fake_cuda::launch(nullptr, kKernelSeconds); }))
    CHECK(s == Approx(kKernelSeconds).epsilon(1e-3));  // not the side work's 40 ms
}
