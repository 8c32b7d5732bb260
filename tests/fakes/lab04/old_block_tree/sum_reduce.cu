// Fake old_block_tree: lab04's reference before 45e24c9 (one element per thread, a
// shared-memory tree per block, one atomic per block): an honest simple kernel, the
// yardstick tests/gpu measures the new reference's thresholds against.
// Lab 04 reference: the float sum as the assignment asks for it, a shared-memory tree
// per block and one atomicAdd per block. The order of the additions is a tree inside a
// block (error grows like log2(256)) and a chain of n/256 block sums in whatever order
// the blocks finish (README.md, "Floating-point sums"). variants.cu has the
// bandwidth-bound version.
#include "api.hpp"
#include "parlab/harness/gpu/cuda_check.hpp"

namespace {

constexpr int kBlock = 256;

__global__ void sum_block_kernel(const float* __restrict__ values, int n, float* result) {
  __shared__ float partial[kBlock];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
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
  // 0.0f is all zero bits, so a memset sets the identity (it runs before the kernel:
  // both are on the default stream).
  PARLAB_CUDA_CHECK(cudaMemset(result, 0, sizeof(float)));
  sum_block_kernel<<<(n + kBlock - 1) / kBlock, kBlock>>>(values, n, result);
}

}  // namespace lab04
