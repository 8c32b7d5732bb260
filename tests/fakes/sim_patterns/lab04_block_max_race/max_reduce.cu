// Fake lab04 max_reduce.cu: max_block folds each block's maximum
// into the result with a plain read-modify-write instead of atomicMax. Every block's
// own threads are ordered by their barriers, so the block-level race check sees
// nothing; two blocks can read the old maximum at the same time on a GPU and one
// update is lost. The simulator's race check across blocks must fail the max_block
// tests, naming the line. max_atomic is the reference's.
#include <climits>

#include "api.hpp"

namespace {

constexpr int kBlock = 256;

int blocks_for(int n) { return (n + kBlock - 1) / kBlock; }

__global__ void set_int(int* p, int value) { *p = value; }

__global__ void max_atomic_kernel(const int* __restrict__ values, int n, int* result) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicMax(result, values[i]);
}

__global__ void max_block_kernel(const int* __restrict__ values, int n, int* result) {
  __shared__ int partial[kBlock];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  partial[t] = i < n ? values[i] : INT_MIN;
  __syncthreads();
  for (int stride = kBlock / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] = max(partial[t], partial[t + stride]);
    __syncthreads();
  }
  if (t == 0 && partial[0] > *result) *result = partial[0];  // the bug: no atomic
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
