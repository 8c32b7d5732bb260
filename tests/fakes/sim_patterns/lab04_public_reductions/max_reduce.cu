// Fake lab04 max_reduce.cu (sim_patterns, docs/simulation.md "Agreement with a GPU"):
// the maximum in shapes public CUDA code uses, correct on a GPU:
//   - the identity in __constant__ memory, set with cudaMemcpyToSymbol, stored by a
//     one-thread kernel;
//   - max_atomic as a grid-stride loop of __ldg loads and atomicMax;
//   - max_block templated on its block size (__launch_bounds__), the size picked with
//     cudaOccupancyMaxPotentialBlockSize and checked with cudaFuncGetAttributes;
//     cg::reduce(tile, v, cg::greater<int>()) per warp, __syncthreads_or to skip
//     blocks past the end, __reduce_max_sync over the warp leaders.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "api.hpp"

namespace cg = cooperative_groups;

#define CUDA_CHECK(call)                                                                  \
  do {                                                                                    \
    const cudaError_t err_ = (call);                                                      \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, \
                   __LINE__);                                                             \
      std::exit(EXIT_FAILURE);                                                            \
    }                                                                                     \
  } while (0)

namespace {

__constant__ int c_identity;  // INT_MIN: the identity of max

__global__ void init_result(int* result) { *result = c_identity; }

__global__ void max_atomic_kernel(const int* __restrict__ values, int n, int* result) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    atomicMax(result, __ldg(&values[i]));
  }
}

template <int kBlockSize>
__global__ void __launch_bounds__(kBlockSize)
    max_block_kernel(const int* __restrict__ values, int n, int* result) {
  static_assert(kBlockSize % 32 == 0, "whole warps");
  __shared__ int warp_max[kBlockSize / 32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int m = INT_MIN;
  for (int i = blockIdx.x * kBlockSize + threadIdx.x; i < n; i += kBlockSize * gridDim.x) {
    m = max(m, values[i]);
  }
  m = cg::reduce(warp, m, cg::greater<int>());
  if (warp.thread_rank() == 0) warp_max[warp.meta_group_rank()] = m;
  const int any_value = __syncthreads_or(m != INT_MIN);  // also the barrier for warp_max
  if (threadIdx.x < 32) {
    int v = threadIdx.x < kBlockSize / 32 ? warp_max[threadIdx.x] : INT_MIN;
    v = __reduce_max_sync(0xffffffffu, v);
    if (threadIdx.x == 0 && any_value) atomicMax(result, v);
  }
}

void set_identity(int* result) {
  const int identity = INT_MIN;
  CUDA_CHECK(cudaMemcpyToSymbol(c_identity, &identity, sizeof(int)));
  init_result<<<1, 1>>>(result);
  CUDA_CHECK(cudaGetLastError());
}

template <int kBlockSize>
void launch_max_block(const int* values, int n, int* result, int grid_limit) {
  const int blocks = std::min((n + kBlockSize - 1) / kBlockSize, grid_limit);
  max_block_kernel<kBlockSize><<<blocks, kBlockSize>>>(values, n, result);
}

}  // namespace

namespace lab04 {

void max_atomic(const int* values, int n, int* result) {
  set_identity(result);
  const int threads = 256;
  max_atomic_kernel<<<(n + threads - 1) / threads, threads>>>(values, n, result);
  CUDA_CHECK(cudaGetLastError());
}

void max_block(const int* values, int n, int* result) {
  set_identity(result);
  int min_grid = 0;
  int block = 0;
  CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, max_block_kernel<256>, 0, 256));
  cudaFuncAttributes attr;
  CUDA_CHECK(cudaFuncGetAttributes(&attr, max_block_kernel<256>));
  if (block > attr.maxThreadsPerBlock) block = attr.maxThreadsPerBlock;
  switch (block) {
    case 256: launch_max_block<256>(values, n, result, min_grid); break;
    case 128: launch_max_block<128>(values, n, result, min_grid); break;
    case 64: launch_max_block<64>(values, n, result, min_grid); break;
    default: launch_max_block<32>(values, n, result, min_grid); break;
  }
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace lab04
