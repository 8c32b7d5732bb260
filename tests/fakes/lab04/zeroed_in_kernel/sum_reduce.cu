// Fake (tests/e2e/sim_findings.sh): the reference's sum, but the result is zeroed inside
// the kernel by block 0's thread 0, assuming block 0 runs first. Right only in orders
// where it does; no GPU promises that, and the simulator's seeded orders in a grading
// (a fresh one per run) usually start another block first and lose its sum.
#include "api.hpp"
#include "parlab/harness/gpu/cuda_check.hpp"

namespace {

constexpr int kBlock = 256;

__global__ void sum_block_kernel(const float* __restrict__ values, int n, float* result) {
  __shared__ float partial[kBlock];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  if (blockIdx.x == 0 && t == 0) *result = 0.0f;  // "block 0 starts first"
  partial[t] = i < n ? values[i] : 0.0f;  // 0 is the identity of +
  __syncthreads();
  for (int stride = kBlock / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) atomicAdd(result, partial[0]);
}

}  // namespace

namespace lab04 {

void sum(const float* values, int n, float* result) {
  sum_block_kernel<<<(n + kBlock - 1) / kBlock, kBlock>>>(values, n, result);
}

}  // namespace lab04
