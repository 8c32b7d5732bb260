#pragma once
// Lab 04 reference: what the bandwidth-bound reductions share (sum_reduce.cu,
// max_reduce.cu). A sum or max reads every element once, so its speed limit is the
// memory bandwidth; to get near it (CUB's reductions reach about 90% of a device copy):
//   - a bounded grid that fills the GPU (8 blocks of 256 threads per SM) and a
//     grid-stride loop, so each thread reads many elements and each block makes ONE
//     atomic at the end;
//   - 16-byte loads (int4/float4): a quarter of the load instructions;
//   - warp shuffles for the tree inside a block (max_block): two barriers instead of
//     eight (sum keeps its shared-memory tree: sum_reduce.cu says why).
// Scalar loads where the pointer is not 16-byte aligned (cudaMalloc memory always is on
// a GPU; the simulator aligns less). Inline and file-local: each .cu file takes what it uses.
#include <climits>
#include <cstdint>

#include "parlab/harness/gpu/cuda_check.hpp"

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr unsigned kFullMask = 0xffffffffu;

// Blocks for n elements at 4 per load, at most 8 per SM.
inline int filled_grid(int n) {
  int device = 0;
  int sms = 1;
  PARLAB_CUDA_CHECK(cudaGetDevice(&device));
  PARLAB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const long long wanted = (static_cast<long long>(n) + kThreads * 4 - 1) / (kThreads * 4);
  return static_cast<int>(wanted < 8LL * sms ? wanted : 8LL * sms);
}

__device__ inline bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

__device__ inline int warp_max(int v) {
  for (int offset = 16; offset > 0; offset /= 2) v = max(v, __shfl_down_sync(kFullMask, v, offset));
  return v;
}

// A tree per warp, one value per warp through shared memory, a last warp tree. Every
// thread of the block calls it (it has a barrier); the result is valid in thread 0.
__device__ inline int block_max(int v) {
  __shared__ int per_warp[kWarps];
  v = warp_max(v);
  if (threadIdx.x % 32 == 0) per_warp[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) v = warp_max(threadIdx.x < kWarps ? per_warp[threadIdx.x] : INT_MIN);
  return v;
}

}  // namespace
