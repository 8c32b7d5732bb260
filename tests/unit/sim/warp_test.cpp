// Warp shuffles, votes and the reduction tails: lanes exchange values in warps of 32.
#include <catch2/catch.hpp>

#include "sim_test_support.hpp"

using sim_test::DeviceArray;

namespace {

constexpr unsigned kFull = 0xffffffffu;

__global__ void all_shuffles(int* out) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  const int i = static_cast<int>(threadIdx.x);
  const int value = 100 + i;
  out[0 * 64 + i] = __shfl_sync(kFull, value, 5);
  out[1 * 64 + i] = __shfl_up_sync(kFull, value, 3);
  out[2 * 64 + i] = __shfl_down_sync(kFull, value, 3);
  out[3 * 64 + i] = __shfl_xor_sync(kFull, value, 1);
  out[4 * 64 + i] = __shfl_sync(kFull, value, lane + 1, 8);   // within groups of 8
  out[5 * 64 + i] = __shfl_down_sync(kFull, value, 2, 4);     // within groups of 4
  out[6 * 64 + i] = static_cast<int>(__shfl_sync(kFull, 1.5 * i, 31));  // a double
}

__global__ void votes(unsigned* out) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned w = threadIdx.x / 32;
  const unsigned ballot = __ballot_sync(kFull, lane % 4 == 0);
  const int any = __any_sync(kFull, lane == 7 && w == 1);
  const int all = __all_sync(kFull, lane < 32);
  const int not_all = __all_sync(kFull, lane != 3);
  const unsigned same = __match_any_sync(kFull, lane / 8);
  const unsigned sum = __reduce_add_sync(kFull, lane);
  if (lane == 0) {
    out[w * 6 + 0] = ballot;
    out[w * 6 + 1] = static_cast<unsigned>(any);
    out[w * 6 + 2] = static_cast<unsigned>(all);
    out[w * 6 + 3] = static_cast<unsigned>(not_all);
    out[w * 6 + 4] = same;
    out[w * 6 + 5] = sum;
  }
}

__device__ float warp_sum(float value) {
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(kFull, value, offset);
  return value;
}

// The common block reduction: per-warp shuffles, partial sums in shared memory, then
// only the first warp reduces them.
__global__ void block_reduce(const float* in, float* out, int n) {
  __shared__ float warp_sums[32];
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  float value = i < n ? in[i] : 0.0f;
  value = warp_sum(value);
  if (lane == 0) warp_sums[warp] = value;
  __syncthreads();
  if (warp == 0) {
    value = lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f;
    value = warp_sum(value);
    if (lane == 0) out[blockIdx.x] = value;
  }
}

// The shared-memory tail written for Volta and later: __syncwarp between the steps.
__global__ void syncwarp_tail(const int* in, int* out) {
  __shared__ int s[64];
  const unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 64 + t] + in[blockIdx.x * 64 + t + 32];
  __syncthreads();
  if (t < 32) {
    int v = s[t];
    for (int offset = 16; offset > 0; offset /= 2) {
      v += s[t + offset];
      __syncwarp();
      s[t] = v;
      __syncwarp();
    }
    if (t == 0) out[blockIdx.x] = s[0];
  }
}

// Lanes that exit early count as absent; a partial last warp works too.
__global__ void exited_lanes(int* out, int n) {
  const int i = static_cast<int>(threadIdx.x);
  if (i >= n) return;
  const unsigned active = __activemask();
  const unsigned ballot = __ballot_sync(active, 1);
  const int sum = __reduce_add_sync(active, 1);
  if (i == 0) {
    out[0] = static_cast<int>(ballot);
    out[1] = sum;
  }
}

// A warp-synchronous copy: each thread copies its share with a __syncwarp() after
// every element; with 64 threads and 100 elements lanes 32..35 of warp 1 make a second
// round while the rest of their warp has gone on to the __syncthreads(). A GPU since
// Volta runs it (the block barrier converges the warp too); the simulator must not
// call it a deadlock.
__global__ void warp_sync_copy(const int* in, int* out, unsigned n) {
  __shared__ int tile[100];
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x) {
    tile[i] = in[i];
    __syncwarp();
  }
  __syncthreads();
  out[threadIdx.x] = tile[n - 1 - threadIdx.x];
}

}  // namespace

TEST_CASE("each shuffle moves values between lanes like CUDA", "[sim][warp]") {
  DeviceArray<int> d_out(7 * 64, -1);
  parlab_sim::launch("all_shuffles", all_shuffles, dim3(1), dim3(64), 0, nullptr, d_out.get());
  const std::vector<int> out = d_out.to_host();
  for (int i = 0; i < 64; ++i) {
    const int lane = i % 32;
    const int base = i - lane;
    INFO("thread " << i);
    CHECK(out[0 * 64 + i] == 100 + base + 5);
    CHECK(out[1 * 64 + i] == 100 + (lane >= 3 ? i - 3 : i));
    CHECK(out[2 * 64 + i] == 100 + (lane + 3 < 32 ? i + 3 : i));
    CHECK(out[3 * 64 + i] == 100 + (i ^ 1));
    CHECK(out[4 * 64 + i] == 100 + base + (lane / 8) * 8 + (lane + 1) % 8);
    CHECK(out[5 * 64 + i] == 100 + (lane % 4 + 2 < 4 ? i + 2 : i));
    CHECK(out[6 * 64 + i] == static_cast<int>(1.5 * (base + 31)));
  }
}

TEST_CASE("votes, matches and reductions combine the lanes of each warp", "[sim][warp]") {
  DeviceArray<unsigned> d_out(12, 0);
  parlab_sim::launch("votes", votes, dim3(1), dim3(64), 0, nullptr, d_out.get());
  const std::vector<unsigned> out = d_out.to_host();
  for (unsigned w = 0; w < 2; ++w) {
    INFO("warp " << w);
    CHECK(out[w * 6 + 0] == 0x11111111u);
    CHECK(out[w * 6 + 1] == w);
    CHECK(out[w * 6 + 2] == 1u);
    CHECK(out[w * 6 + 3] == 0u);
    CHECK(out[w * 6 + 4] == 0x000000ffu);
    CHECK(out[w * 6 + 5] == 496u);
  }
}

TEST_CASE("the first-warp reduction tail sums a block", "[sim][warp]") {
  const int n = 100000;
  const unsigned threads = 256;
  const unsigned blocks = (n + threads - 1) / threads;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i % 13);
  DeviceArray<float> d_in(in);
  DeviceArray<float> d_out(blocks);
  parlab_sim::launch("block_reduce", block_reduce, dim3(blocks), dim3(threads), 0, nullptr,
                     d_in.get(), d_out.get(), n);
  const std::vector<float> out = d_out.to_host();
  for (unsigned b = 0; b < blocks; ++b) {
    float expected = 0;
    for (unsigned i = b * threads; i < std::min<unsigned>(n, (b + 1) * threads); ++i) expected += in[i];
    REQUIRE(out[b] == expected);
  }
}

TEST_CASE("a __syncwarp-separated shared-memory tail is exact", "[sim][warp]") {
  const unsigned blocks = 20;
  std::vector<int> in(blocks * 64);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i);
  DeviceArray<int> d_in(in);
  DeviceArray<int> d_out(blocks);
  parlab_sim::launch("syncwarp_tail", syncwarp_tail, dim3(blocks), dim3(32), 0, nullptr,
                     d_in.get(), d_out.get());
  const std::vector<int> out = d_out.to_host();
  for (unsigned b = 0; b < blocks; ++b) {
    int expected = 0;
    for (unsigned i = 0; i < 64; ++i) expected += in[b * 64 + i];
    REQUIRE(out[b] == expected);
  }
}

TEST_CASE("lanes waiting at __syncthreads() do not hold back a __syncwarp() of their warp",
          "[sim][warp]") {
  std::vector<int> in(100);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i * 3);
  DeviceArray<int> d_in(in);
  DeviceArray<int> d_out(64, -1);
  parlab_sim::launch("warp_sync_copy", warp_sync_copy, dim3(2), dim3(64), 0, nullptr, d_in.get(),
                     d_out.get(), 100u);
  const std::vector<int> out = d_out.to_host();
  for (unsigned t = 0; t < 64; ++t) REQUIRE(out[t] == in[99 - t]);
}

TEST_CASE("lanes that exited and missing lanes of a partial warp are absent", "[sim][warp]") {
  DeviceArray<int> d_out(2, -1);
  SECTION("early return") {
    parlab_sim::launch("exited_lanes", exited_lanes, dim3(1), dim3(32), 0, nullptr, d_out.get(), 10);
  }
  SECTION("partial warp") {
    parlab_sim::launch("exited_lanes", exited_lanes, dim3(1), dim3(10), 0, nullptr, d_out.get(), 32);
  }
  const std::vector<int> out = d_out.to_host();
  CHECK(static_cast<unsigned>(out[0]) == 0x3ffu);
  CHECK(out[1] == 10);
}
