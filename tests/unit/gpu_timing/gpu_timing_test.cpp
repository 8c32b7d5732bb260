// The harness's GPU timing against a virtual-clock CUDA runtime (fake_cuda/): what one
// timed sample covers. Families of timing cheats measured on public GPU graders: work
// moved to a stream the default stream does not wait for, and an L2 persisting window
// that keeps the input cached from one call to the next.
#include <catch2/catch.hpp>

#include <filesystem>
#include <vector>

#include "parlab/harness/driver.hpp"
#include "parlab/harness/gpu/gpu_timing.hpp"
#include "scratch_dir.hpp"

using parlab::harness::OutputWriter;
using parlab::Params;
using parlab::harness::TaskContext;
using parlab::harness::gpu::gpu_timed;

namespace {

constexpr double kKernelSeconds = 0.004;

// Grades `work` as a driver would (1 warm-up, 3 samples) and returns the samples.
template <class Work>
std::vector<double> samples_of(Work&& work, fake_cuda::Device device = {}) {
  fake_cuda::reset(device);
  parlab::testing::ScratchDir dir;
  OutputWriter out(dir.path());
  TaskContext ctx(dir.path(), Params{}, out, /*warmup=*/1, /*repeat=*/3);
  gpu_timed(ctx, "student_call", [] {}, work);
  return ctx.samples();
}

}  // namespace

TEST_CASE("a kernel on the default stream is timed whole") {
  for (double s : samples_of([] { fake_cuda::launch(nullptr, kKernelSeconds); })) {
    CHECK(s == Approx(kKernelSeconds).epsilon(1e-3));
  }
}

TEST_CASE("work moved to a non-blocking stream is timed, not left running past the stop") {
  cudaStream_t side = nullptr;
  auto on_side_stream = [&] {
    if (side == nullptr) cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    fake_cuda::launch(side, kKernelSeconds);  // returns at once; nothing waits for it
  };
  for (double s : samples_of(on_side_stream)) CHECK(s >= kKernelSeconds * 0.999);
}

TEST_CASE("a persisting L2 window set before a sample does not make that sample faster") {
  fake_cuda::Device ampere;
  ampere.persisting_max_bytes = 30 << 20;
  bool limit_set = false;
  auto keeps_input_persisting = [&] {
    if (!limit_set) {  // the warm-up call asks for persisting lines once, then relies on them
      cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 30 << 20);
      limit_set = true;
    }
    fake_cuda::launch(nullptr, kKernelSeconds, /*uses_persisting_lines=*/true);
  };
  for (double s : samples_of(keeps_input_persisting, ampere)) {
    CHECK(s == Approx(kKernelSeconds).epsilon(1e-3));  // the fast path would be a quarter
  }
}

TEST_CASE("a GPU without persisting lines is flushed without asking for them") {
  // cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize) fails there: asking would throw.
  fake_cuda::Device older;
  older.persisting_max_bytes = 0;
  CHECK(samples_of([] { fake_cuda::launch(nullptr, kKernelSeconds); }, older).size() == 3);
}

TEST_CASE("the flush writes at least twice the L2 cache, however large the cache") {
  fake_cuda::Device large_l2;
  large_l2.l2_bytes = 1 << 30;  // past the old 256 MiB cap
  samples_of([] { fake_cuda::launch(nullptr, kKernelSeconds); }, large_l2);
  CHECK(fake_cuda::largest_memset() >= 2 * (std::size_t{1} << 30));
}
