// Lab 04 reference, extra tasks (registered with register_extra_task, run with
// --task NAME like the driver's own):
//   histogram_fast    per-WARP private copies in shared memory (fewer threads share a
//                     counter: less contention on skewed keys), int4 loads
//   histogram_global  one global atomicAdd per key: the contention baseline
// The sum and max_block reductions themselves are the bandwidth-bound versions
// (sum_reduce.cu, max_reduce.cu, block_reduce.cuh): a bounded grid that fills the GPU,
// 16-byte loads, and a block reduction with only two barriers.
#include <climits>
#include <cstdint>

#include "api.hpp"
#include "block_reduce.cuh"
#include "variant_tasks.hpp"

namespace {

// copies private histograms per block, warp w counting into copy w % copies.
__global__ void histogram_fast_kernel(const int* __restrict__ keys, int n, int* bins,
                                      int num_bins, int copies) {
  extern __shared__ int local[];
  for (int b = threadIdx.x; b < copies * num_bins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  int* mine = local + (threadIdx.x / 32 % copies) * num_bins;
  const int first = blockIdx.x * blockDim.x + threadIdx.x;
  const int stride = blockDim.x * gridDim.x;
  int scalar_from = 0;
  if (aligned16(keys)) {
    const int4* k4 = reinterpret_cast<const int4*>(keys);
    const int n4 = n / 4;
    for (int i = first; i < n4; i += stride) {
      const int4 q = k4[i];
      atomicAdd(&mine[q.x], 1);
      atomicAdd(&mine[q.y], 1);
      atomicAdd(&mine[q.z], 1);
      atomicAdd(&mine[q.w], 1);
    }
    scalar_from = 4 * n4;
  }
  for (int i = scalar_from + first; i < n; i += stride) atomicAdd(&mine[keys[i]], 1);
  __syncthreads();
  for (int b = threadIdx.x; b < num_bins; b += blockDim.x) {
    int count = 0;
    for (int c = 0; c < copies; ++c) count += local[c * num_bins + b];
    if (count != 0) atomicAdd(&bins[b], count);
  }
}

__global__ void histogram_global_kernel(const int* __restrict__ keys, int n, int* bins) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[keys[i]], 1);
}

void histogram_fast(const int* keys, int n, int* bins, int num_bins) {
  PARLAB_CUDA_CHECK(cudaMemset(bins, 0, static_cast<size_t>(num_bins) * sizeof(int)));
  // As many copies as fit in 16 KiB (keeps 8 blocks per SM resident), at most one per warp.
  const int fit = 16384 / (num_bins * static_cast<int>(sizeof(int)));
  const int copies = fit < 1 ? 1 : (fit > kWarps ? kWarps : fit);
  const size_t shared = static_cast<size_t>(copies) * num_bins * sizeof(int);
  histogram_fast_kernel<<<filled_grid(n), kThreads, shared>>>(keys, n, bins, num_bins, copies);
}

void histogram_global(const int* keys, int n, int* bins, int num_bins) {
  PARLAB_CUDA_CHECK(cudaMemset(bins, 0, static_cast<size_t>(num_bins) * sizeof(int)));
  histogram_global_kernel<<<(n + kThreads - 1) / kThreads, kThreads>>>(keys, n, bins);
}

using parlab::harness::register_extra_task;
using parlab::harness::TaskContext;
namespace v = lab04::variants;

[[maybe_unused]] const bool kRegistered =
    register_extra_task({"histogram_fast", "histogram: per-warp shared copies, int4 loads",
                         [](TaskContext& ctx) {
                           v::run_histogram(ctx, "histogram_fast", histogram_fast);
                         }}) &&
    register_extra_task({"histogram_global", "histogram: one global atomicAdd per key",
                         [](TaskContext& ctx) {
                           v::run_histogram(ctx, "histogram_global", histogram_global);
                         }});

}  // namespace
