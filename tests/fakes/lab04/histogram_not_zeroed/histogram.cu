// Fake lab04 histogram.cu: the reference without the loop that zeroes the block's
// shared-memory counters. Memory that starts at zero passes; a GPU's shared memory
// holds whatever the previous block left, and so does the simulator's (poisoned).
// Was: a histogram with shared-memory privatization, as the assignment
// asks. Each block counts into its own copy in shared memory (atomics there are cheap
// and spread over the block's copy), then adds its copy to the global bins. A bounded
// grid with a grid-stride loop makes each block count many keys, so the flush (one
// global atomic per bin and block) is small next to the counting. variants.cu has
// per-warp copies and vector loads.
#include "api.hpp"
#include "parlab/harness/gpu/cuda_check.hpp"

namespace {

constexpr int kBlock = 256;

__global__ void histogram_kernel(const int* __restrict__ keys, int n, int* bins, int num_bins) {
  extern __shared__ int local[];  // num_bins counters
  __syncthreads();  // all zeroed before anyone counts
  const int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    atomicAdd(&local[keys[i]], 1);
  }
  __syncthreads();  // all counted before anyone flushes
  for (int b = threadIdx.x; b < num_bins; b += blockDim.x) {
    if (local[b] != 0) atomicAdd(&bins[b], local[b]);
  }
}

// Enough blocks to fill the GPU (8 resident blocks of 256 threads per SM), no more:
// more blocks would only mean more flushes.
int grid_for(int n) {
  int device = 0;
  int sms = 1;
  PARLAB_CUDA_CHECK(cudaGetDevice(&device));
  PARLAB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const int wanted = (n + kBlock - 1) / kBlock;
  return wanted < 8 * sms ? wanted : 8 * sms;
}

}  // namespace

namespace lab04 {

void histogram(const int* keys, int n, int* bins, int num_bins) {
  PARLAB_CUDA_CHECK(cudaMemset(bins, 0, static_cast<size_t>(num_bins) * sizeof(int)));
  const size_t shared = static_cast<size_t>(num_bins) * sizeof(int);  // <= 32 KiB
  histogram_kernel<<<grid_for(n), kBlock, shared>>>(keys, n, bins, num_bins);
}

}  // namespace lab04
