// Fake lab04 histogram.cu (sim_patterns, docs/simulation.md "Agreement with a GPU"):
// the privatized histogram in shapes public CUDA code uses, correct on a GPU:
//   - dynamic shared memory as raw aligned bytes (`extern __shared__ __align__(16)
//     unsigned char smem[]`) cast to the counters, sized by the launch's 3rd argument;
//   - warp-aggregated atomics: a mask from __ballot_sync over a warp-uniform loop,
//     __match_any_sync to find the lanes with the same key, the leader (__ffs) adding
//     __popc(peers) for them;
//   - the grid sized from cudaDeviceGetAttribute, cudaMemsetAsync on the default stream.
#include <algorithm>

#include "api.hpp"
#include "parlab/harness/gpu/cuda_check.hpp"

namespace {

constexpr int kBlock = 256;

__global__ void histogram_kernel(const int* __restrict__ keys, int n, int* bins, int num_bins) {
  extern __shared__ __align__(16) unsigned char smem[];
  unsigned int* local = reinterpret_cast<unsigned int*>(smem);
  for (int b = threadIdx.x; b < num_bins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  const int lane = threadIdx.x % warpSize;
  const int stride = blockDim.x * gridDim.x;
  const int rounded = (n + warpSize - 1) / warpSize * warpSize;  // the loop is warp-uniform
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rounded; i += stride) {
    const bool valid = i < n;
    const unsigned mask = __ballot_sync(0xffffffffu, valid);
    if (valid) {
      const int key = keys[i];
      const unsigned peers = __match_any_sync(mask, key);
      const int leader = __ffs(peers) - 1;
      if (lane == leader) atomicAdd(&local[key], static_cast<unsigned>(__popc(peers)));
    }
  }
  __syncthreads();
  for (int b = threadIdx.x; b < num_bins; b += blockDim.x) {
    const unsigned count = local[b];
    if (count != 0) atomicAdd(&bins[b], static_cast<int>(count));
  }
}

}  // namespace

namespace lab04 {

void histogram(const int* keys, int n, int* bins, int num_bins) {
  int device = 0;
  int sms = 1;
  PARLAB_CUDA_CHECK(cudaGetDevice(&device));
  PARLAB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  PARLAB_CUDA_CHECK(cudaMemsetAsync(bins, 0, static_cast<size_t>(num_bins) * sizeof(int)));
  const int blocks = std::min((n + kBlock - 1) / kBlock, 4 * sms);
  const size_t shared = static_cast<size_t>(num_bins) * sizeof(unsigned int);
  histogram_kernel<<<blocks, kBlock, shared>>>(keys, n, bins, num_bins);
  PARLAB_CUDA_CHECK(cudaGetLastError());
}

}  // namespace lab04
