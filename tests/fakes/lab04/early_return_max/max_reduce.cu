// Fake lab04 max_reduce.cu (the tests copy the reference's other files beside it):
// max_block returns early for the threads past the end, before the __syncthreads()
// of the tree. The tree only reads the slots of threads still running, so the answer
// is right (on Volta+ GPUs and in the simulator), but the CUDA programming guide
// forbids the pattern: the simulator must say so, with the barrier's line, and keep
// the points.
#include <climits>

#include "api.hpp"

namespace {

constexpr int kBlock = 256;

int blocks_for(int n) { return (n + kBlock - 1) / kBlock; }

__global__ void set_int(int* p, int value) { *p = value; }

__global__ void max_atomic_kernel(const int* values, int n, int* result) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicMax(result, values[i]);
}

__global__ void max_block_kernel(const int* values, int n, int* result) {
  __shared__ int partial[kBlock];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  if (i >= n) return;  // the forbidden early exit
  const int live = min(kBlock, n - static_cast<int>(blockIdx.x * blockDim.x));
  partial[t] = values[i];
  __syncthreads();
  for (int stride = kBlock / 2; stride > 0; stride /= 2) {
    if (t < stride && t + stride < live) partial[t] = max(partial[t], partial[t + stride]);
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
