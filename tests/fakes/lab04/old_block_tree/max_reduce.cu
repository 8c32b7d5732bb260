// Fake old_block_tree: lab04's reference before 45e24c9 (one element per thread, a
// shared-memory tree per block, one atomic per block): an honest simple kernel, the
// yardstick tests/gpu measures the new reference's thresholds against.
// Lab 04 reference: the maximum, in the two forms the assignment asks for.
//   max_atomic: one global atomicMax per element (n atomics on ONE address: they are
//               serialized by the memory system, the contention lesson).
//   max_block:  a shared-memory tree per block, then one atomicMax per block (n/256
//               atomics). variants.cu has the bandwidth-bound version (grid-stride,
//               int4 loads, warp shuffles).
#include <climits>

#include "api.hpp"

namespace {

constexpr int kBlock = 256;  // a power of two: the tree halves it down to 1

int blocks_for(int n) { return (n + kBlock - 1) / kBlock; }

// The output arrives poisoned (-1): a max must start from its identity, INT_MIN.
__global__ void set_int(int* p, int value) { *p = value; }

__global__ void max_atomic_kernel(const int* __restrict__ values, int n, int* result) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicMax(result, values[i]);
}

__global__ void max_block_kernel(const int* __restrict__ values, int n, int* result) {
  __shared__ int partial[kBlock];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  // Threads past the end contribute the identity, so the tree needs no bounds test.
  partial[t] = i < n ? values[i] : INT_MIN;
  __syncthreads();
  // Halve the active threads each step; neighbours stay contiguous (no bank conflicts,
  // whole warps drop out together). Every thread reaches every barrier.
  for (int stride = kBlock / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] = max(partial[t], partial[t + stride]);
    __syncthreads();
  }
  if (t == 0) atomicMax(result, partial[0]);
}

}  // namespace

namespace lab04 {

void max_atomic(const int* values, int n, int* result) {
  set_int<<<1, 1>>>(result, INT_MIN);
  max_atomic_kernel<<<blocks_for(n), kBlock>>>(values, n, result);
}

void max_block(const int* values, int n, int* result) {
  set_int<<<1, 1>>>(result, INT_MIN);
  max_block_kernel<<<blocks_for(n), kBlock>>>(values, n, result);
}

}  // namespace lab04
