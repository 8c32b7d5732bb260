// Lab 04 reference: the maximum, in the two forms the assignment asks for.
//   max_atomic: one global atomicMax per element (n atomics on ONE address: they are
//               serialized by the memory system, the contention lesson).
//   max_block:  a tree per block, then one atomicMax per block, written to run near
//               the memory bandwidth (block_reduce.cuh): a bounded grid with a
//               grid-stride loop of int4 loads, warp-shuffle trees, so a few thousand
//               atomics in all.
#include <climits>

#include "api.hpp"
#include "block_reduce.cuh"

namespace {

int blocks_for(int n) { return (n + kThreads - 1) / kThreads; }

// The output arrives poisoned (-1): a max must start from its identity, INT_MIN.
__global__ void set_int(int* p, int value) { *p = value; }

__global__ void max_atomic_kernel(const int* __restrict__ values, int n, int* result) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicMax(result, values[i]);
}

__global__ void max_block_kernel(const int* __restrict__ values, int n, int* result) {
  const int first = blockIdx.x * blockDim.x + threadIdx.x;
  const int stride = blockDim.x * gridDim.x;
  int m = INT_MIN;  // the identity of max: threads past the end change nothing
  int scalar_from = 0;
  if (aligned16(values)) {
    const int4* v4 = reinterpret_cast<const int4*>(values);
    const int n4 = n / 4;
    for (int i = first; i < n4; i += stride) {
      const int4 q = v4[i];
      m = max(m, max(max(q.x, q.y), max(q.z, q.w)));
    }
    scalar_from = 4 * n4;
  }
  for (int i = scalar_from + first; i < n; i += stride) m = max(m, values[i]);
  m = block_max(m);
  if (threadIdx.x == 0) atomicMax(result, m);
}

}  // namespace

namespace lab04 {

void max_atomic(const int* values, int n, int* result) {
  set_int<<<1, 1>>>(result, INT_MIN);
  max_atomic_kernel<<<blocks_for(n), kThreads>>>(values, n, result);
}

void max_block(const int* values, int n, int* result) {
  set_int<<<1, 1>>>(result, INT_MIN);
  max_block_kernel<<<filled_grid(n), kThreads>>>(values, n, result);
}

}  // namespace lab04
