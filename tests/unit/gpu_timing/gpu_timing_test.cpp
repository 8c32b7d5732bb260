// The harness's GPU timing against a virtual-clock CUDA runtime (fake_cuda/): what one
// timed sample covers. Families of timing cheats measured on public GPU graders: work
// moved to a stream the default stream does not wait for, and an L2 persisting window
// that keeps the input cached from one call to the next.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "parlab/harness/driver.hpp"
#include "parlab/harness/gpu/gpu_timing.hpp"
#include "parlab/harness/gpu/sampled_fresh_inputs.hpp"
#include "timed_samples.hpp"

using parlab::harness::OutputWriter;
using parlab::Params;
using parlab::harness::TaskContext;
using parlab::harness::gpu::gpu_timed;

using fake_cuda::kKernelSeconds;

namespace {

// Grades `work` as a driver would (1 warm-up, 3 samples) and returns the samples.
template <class Work>
std::vector<double> samples_of(Work&& work, fake_cuda::Device device = {}) {
  return fake_cuda::timed_samples([] {}, work, device);
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

// Fresh inputs: a stand-in "device" input and output, the call's result a function of
// its input, so a result kept from an earlier call shows as an output that does not fit.
namespace {

struct ReplayBench {
  int dataset_input = 7;
  int input = 7;
  int output = 0;
  int refreshes = 0;
  int restores = 0;
  parlab::harness::gpu::FreshInputs steps() {
    return {[this](std::uint64_t seed) {
              input = 100 + static_cast<int>(seed % 100000007);  // new content, never the dataset's
              ++refreshes;
            },
            [this]() -> std::string {
              return output == 2 * input ? "" : "output " + std::to_string(output);
            },
            [this] {
              input = dataset_input;
              ++restores;
            }};
  }
};

template <class Work>
void time_with_fresh_inputs(ReplayBench& bench, Work&& work, int warmup, int repeat) {
  fake_cuda::reset({});
  parlab::testing::ScratchDir dir;
  OutputWriter out(dir.path());
  TaskContext ctx(dir.path(), Params{}, out, warmup, repeat);
  const parlab::harness::gpu::FreshInputs steps = bench.steps();
  gpu_timed(ctx, "student_call", [&] { bench.output = -1; }, work, &steps);
}

}  // namespace

TEST_CASE("every timed call gets new input, and the last call is on the dataset's own") {
  ReplayBench bench;
  time_with_fresh_inputs(bench, [&] { bench.output = 2 * bench.input; }, 1, 3);
  CHECK(bench.refreshes == 3);
  CHECK(bench.restores == 1);
  CHECK(bench.output == 2 * bench.dataset_input);  // what the driver writes for the grader
}

TEST_CASE("a result kept from the warm-up call fails the first timed repetition") {
  ReplayBench bench;
  int kept = 0;
  auto replays = [&] {
    if (kept == 0) kept = 2 * bench.input;  // computed once, returned ever after
    bench.output = kept;
  };
  CHECK_THROWS_WITH(time_with_fresh_inputs(bench, replays, 1, 3),
                    Catch::Contains("timed repetition 1") && Catch::Contains("output 14"));
}

TEST_CASE("work skipped after the first call fails: the output is poisoned before each") {
  ReplayBench bench;
  int calls = 0;
  auto skips = [&] {
    if (calls++ == 0) bench.output = 2 * bench.input;
  };
  CHECK_THROWS_AS(time_with_fresh_inputs(bench, skips, 1, 3),
                  parlab::harness::gpu::StaleResultError);
}

TEST_CASE("a result cached by input content fails too: no two timed calls share content") {
  ReplayBench bench;
  std::map<int, int> cache;  // honest for new content; the trick only pays on a repeat
  auto caches_by_content = [&] {
    auto [it, fresh] = cache.try_emplace(bench.input, 2 * bench.input);
    bench.output = it->second;
  };
  time_with_fresh_inputs(bench, caches_by_content, 2, 4);
  CHECK(bench.output == 2 * bench.dataset_input);
  CHECK(cache.size() >= 4);  // every timed call computed (1 dataset + up to 4 fresh contents)
}

TEST_CASE("a single call (a correctness run) keeps the dataset's content") {
  ReplayBench bench;
  time_with_fresh_inputs(bench, [&] { bench.output = 2 * bench.input; }, 0, 1);
  CHECK(bench.refreshes == 0);
  CHECK(bench.restores == 0);
  CHECK(bench.output == 14);
}

// Element-wise fresh inputs (sampled_fresh_inputs.hpp) on the fake runtime's host-backed
// device memory: out = 2 x + y, the "kernel" a loop over the buffers.
namespace {

using parlab::harness::gpu::DeviceBuffer;
using parlab::harness::gpu::SampledFreshInputs;

struct TwoXPlusY {
  std::vector<float> x{0.5f, -0.25f, 1.0f, 0.0f, 0.75f, -1.0f, 0.125f, 0.5f};
  std::vector<float> y{1.0f, 1.0f, -0.5f, 0.25f, 0.0f, 0.5f, -0.125f, 0.0f};
  DeviceBuffer<float> dx{x.size()}, dy{y.size()}, dout{x.size()};

  void run_honestly() {
    for (std::size_t i = 0; i < x.size(); ++i) dout.get()[i] = 2 * dx.get()[i] + dy.get()[i];
  }
  template <class Work>
  std::vector<float> time_it(Work&& work) {
    parlab::testing::ScratchDir dir;
    OutputWriter out(dir.path());
    TaskContext ctx(dir.path(), Params{}, out, /*warmup=*/1, /*repeat=*/3);
    dx.upload(x);
    dy.upload(y);
    SampledFreshInputs fresh({{&dx, &x}, {&dy, &y}}, dout, "out",
                             [](std::size_t i, const SampledFreshInputs::Inputs& in) {
                               return 2.0 * in[0][i] + in[1][i];
                             });
    const parlab::harness::gpu::FreshInputs steps = fresh.steps();
    gpu_timed(ctx, "two_x_plus_y", [&] { dout.poison(); }, work, &steps);
    return dout.download();
  }
};

}  // namespace

TEST_CASE("sampled fresh inputs: an honest element-wise call passes, the dataset's answer last") {
  fake_cuda::reset({});
  TwoXPlusY bench;
  const std::vector<float> last = bench.time_it([&] { bench.run_honestly(); });
  for (std::size_t i = 0; i < last.size(); ++i) CHECK(last[i] == 2 * bench.x[i] + bench.y[i]);
}

TEST_CASE("sampled fresh inputs: an output copied from the first call is caught") {
  fake_cuda::reset({});
  TwoXPlusY bench;
  std::vector<float> kept;
  auto replays = [&] {
    if (kept.empty()) {
      bench.run_honestly();
      kept = bench.dout.download();
    } else {
      bench.dout.upload(kept);  // a device-to-device copy of the first product, on a GPU
    }
  };
  CHECK_THROWS_WITH(bench.time_it(replays), Catch::Contains("two_x_plus_y returned a result") &&
                                                Catch::Contains("out at index"));
}

TEST_CASE("fresh values are spread over -1 up to 1 (1 excluded), differ by seed, and repeat for a seed") {
  std::vector<float> a(4096), b(4096), again(4096);
  parlab::harness::gpu::fill_uniform(a, 1);
  parlab::harness::gpu::fill_uniform(b, 2);
  parlab::harness::gpu::fill_uniform(again, 1);
  CHECK(a == again);
  CHECK(a != b);
  double sum = 0, low = 1, high = -1;
  for (float v : a) {
    REQUIRE(v >= -1.0f);
    REQUIRE(v < 1.0f);
    sum += v;
    low = std::min<double>(low, v);
    high = std::max<double>(high, v);
  }
  CHECK(std::abs(sum / a.size()) < 0.05);  // centred
  CHECK(low < -0.99);
  CHECK(high > 0.99);
}
