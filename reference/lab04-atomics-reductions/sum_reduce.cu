// Lab 04 reference: the float sum as the assignment asks for it, a shared-memory tree
// per block and one atomicAdd per block, written to run near the memory bandwidth
// (block_reduce.cuh): a bounded grid with a grid-stride loop of float4 loads, so each
// block reads many elements and the tree and the atomic are paid once per block. The
// tree stays the classic shared-memory one (not warp shuffles as in max_block): the
// simulator's divergence hint judges a student's tree against this one (sequential
// addressing, whole warps dropping out together). The order of the additions: a short
// chain per thread (its grid-stride elements, in pairs), a tree inside the block, and a
// chain of the block sums (8 per SM) in whatever order the blocks finish (README.md,
// "Floating-point sums").
#include "api.hpp"
#include "block_reduce.cuh"

namespace {

__global__ void sum_block_kernel(const float* __restrict__ values, int n, float* result) {
  const int first = blockIdx.x * blockDim.x + threadIdx.x;
  const int stride = blockDim.x * gridDim.x;
  float s = 0.0f;  // 0 is the identity of +: threads past the end add nothing
  int scalar_from = 0;
  if (aligned16(values)) {
    const float4* v4 = reinterpret_cast<const float4*>(values);
    const int n4 = n / 4;
    for (int i = first; i < n4; i += stride) {
      const float4 q = v4[i];
      s += (q.x + q.y) + (q.z + q.w);
    }
    scalar_from = 4 * n4;
  }
  for (int i = scalar_from + first; i < n; i += stride) s += values[i];
  __shared__ float partial[kThreads];
  const int t = threadIdx.x;
  partial[t] = s;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (t < half) partial[t] += partial[t + half];
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
  sum_block_kernel<<<filled_grid(n), kThreads>>>(values, n, result);
}

}  // namespace lab04
