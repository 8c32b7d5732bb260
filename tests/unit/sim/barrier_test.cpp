// __syncthreads is a real barrier: without it these kernels read values their
// neighbours have not written yet (each CUDA thread runs until it has to wait).
#include <catch2/catch.hpp>
#include <numeric>

#include "sim_test_support.hpp"

using sim_test::DeviceArray;

namespace {

__global__ void read_right_neighbour(const int* in, int* out) {
  __shared__ int tile[1024];
  const unsigned t = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + t;
  tile[t] = in[i];
  __syncthreads();
  out[i] = tile[(t + 1) % blockDim.x];
}

__global__ void block_sum(const int* in, int* sums) {
  __shared__ int partial[512];
  const unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) sums[blockIdx.x] = partial[0];
}

// A 2D block transposes a 16x16 tile through shared memory.
__global__ void transpose_tile(const float* in, float* out, int width) {
  __shared__ float tile[16][17];
  const int x = blockIdx.x * 16 + threadIdx.x;
  const int y = blockIdx.y * 16 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  __syncthreads();
  const int tx = blockIdx.y * 16 + threadIdx.x;
  const int ty = blockIdx.x * 16 + threadIdx.y;
  out[ty * width + tx] = tile[threadIdx.x][threadIdx.y];
}

__global__ void many_barriers(int* out, int rounds) {
  __shared__ int value[64];
  const unsigned t = threadIdx.x;
  value[t] = static_cast<int>(t);
  for (int r = 0; r < rounds; ++r) {
    __syncthreads();
    const int next = value[(t + 1) % 64];
    __syncthreads();
    value[t] = next;
  }
  __syncthreads();
  out[blockIdx.x * 64 + t] = value[t];
}

__global__ void barrier_votes(int* out) {
  const int t = static_cast<int>(threadIdx.x);
  const int count = __syncthreads_count(t % 3 == 0);
  const int all = __syncthreads_and(t >= 0);
  const int none = __syncthreads_or(t > 1000);
  const int some = __syncthreads_or(t == 17);
  if (t == 0) {
    out[0] = count;
    out[1] = all;
    out[2] = none;
    out[3] = some;
  }
}

}  // namespace

TEST_CASE("__syncthreads makes every shared write visible before any read", "[sim][barrier]") {
  for (unsigned threads : {32u, 100u, 1024u}) {
    const unsigned blocks = 7;
    std::vector<int> in(blocks * threads);
    std::iota(in.begin(), in.end(), 0);
    DeviceArray<int> d_in(in);
    DeviceArray<int> d_out(in.size(), -1);
    parlab_sim::launch("read_right_neighbour", read_right_neighbour, dim3(blocks), dim3(threads), 0,
                       nullptr, d_in.get(), d_out.get());
    REQUIRE(cudaGetLastError() == cudaSuccess);
    const std::vector<int> out = d_out.to_host();
    for (unsigned b = 0; b < blocks; ++b) {
      for (unsigned t = 0; t < threads; ++t) {
        REQUIRE(out[b * threads + t] == in[b * threads + (t + 1) % threads]);
      }
    }
  }
}

TEST_CASE("a shared-memory tree reduction with a barrier per step is exact", "[sim][barrier]") {
  const unsigned blocks = 64;
  const unsigned threads = 512;
  std::vector<int> in(blocks * threads);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i % 97) - 40;
  DeviceArray<int> d_in(in);
  DeviceArray<int> d_sums(blocks);
  parlab_sim::launch("block_sum", block_sum, dim3(blocks), dim3(threads), 0, nullptr, d_in.get(),
                     d_sums.get());
  const std::vector<int> sums = d_sums.to_host();
  for (unsigned b = 0; b < blocks; ++b) {
    const int expected = std::accumulate(in.begin() + b * threads, in.begin() + (b + 1) * threads, 0);
    REQUIRE(sums[b] == expected);
  }
}

TEST_CASE("2D blocks and grids index threads like CUDA", "[sim][barrier]") {
  const int width = 64;
  std::vector<float> in(width * width);
  std::iota(in.begin(), in.end(), 0.0f);
  DeviceArray<float> d_in(in);
  DeviceArray<float> d_out(in.size());
  parlab_sim::launch("transpose_tile", transpose_tile, dim3(width / 16, width / 16), dim3(16, 16),
                     0, nullptr, d_in.get(), d_out.get(), width);
  const std::vector<float> out = d_out.to_host();
  for (int y = 0; y < width; ++y) {
    for (int x = 0; x < width; ++x) REQUIRE(out[x * width + y] == in[y * width + x]);
  }
}

TEST_CASE("a barrier inside a loop works for thousands of rounds", "[sim][barrier]") {
  const int rounds = 1000;
  DeviceArray<int> d_out(4 * 64);
  parlab_sim::launch("many_barriers", many_barriers, dim3(4), dim3(64), 0, nullptr, d_out.get(),
                     rounds);
  const std::vector<int> out = d_out.to_host();
  for (int i = 0; i < 4 * 64; ++i) REQUIRE(out[i] == (i % 64 + rounds) % 64);
}

TEST_CASE("__syncthreads_count, _and and _or combine every thread's predicate",
          "[sim][barrier]") {
  DeviceArray<int> d_out(4);
  parlab_sim::launch("barrier_votes", barrier_votes, dim3(1), dim3(100), 0, nullptr, d_out.get());
  const std::vector<int> out = d_out.to_host();
  CHECK(out[0] == 34);  // 0, 3, ..., 99
  CHECK(out[1] == 1);
  CHECK(out[2] == 0);
  CHECK(out[3] == 1);
}
