// Lab 04 reference, extra tasks (registered with register_extra_task, run with
// --task NAME like the driver's own):
//   max_fast          grid-stride int4 loads, warp-shuffle tree, one atomicMax per block
//   sum_fast          the same for the float sum (float4 loads)
//   histogram_fast    per-WARP private copies in shared memory (fewer threads share a
//                     counter: less contention on skewed keys), int4 loads
//   histogram_global  one global atomicAdd per key: the contention baseline
// The fast ones aim at the device's memory bandwidth: a bounded grid that fills the GPU
// (8 blocks of 256 threads per SM), 16-byte loads, and a block reduction with only two
// barriers. They fall back to scalar loads when a pointer is not 16-byte aligned
// (cudaMalloc memory always is on a GPU; the simulator aligns less).
#include <climits>
#include <cstdint>

#include "api.hpp"
#include "parlab/harness/gpu/cuda_check.hpp"
#include "variant_tasks.hpp"

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr unsigned kFullMask = 0xffffffffu;

int filled_grid(int n, int items_per_thread) {
  int device = 0;
  int sms = 1;
  PARLAB_CUDA_CHECK(cudaGetDevice(&device));
  PARLAB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const long long wanted =
      (static_cast<long long>(n) + kThreads * items_per_thread - 1) / (kThreads * items_per_thread);
  return static_cast<int>(wanted < 8LL * sms ? wanted : 8LL * sms);
}

__device__ bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

__device__ int warp_max(int v) {
  for (int offset = 16; offset > 0; offset /= 2) v = max(v, __shfl_down_sync(kFullMask, v, offset));
  return v;
}
__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(kFullMask, v, offset);
  return v;
}

// Warp trees, one value per warp through shared memory, a last warp tree: two
// barriers instead of eight. The result is valid in thread 0.
__device__ int block_max(int v) {
  __shared__ int per_warp[kWarps];
  v = warp_max(v);
  if (threadIdx.x % 32 == 0) per_warp[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) v = warp_max(threadIdx.x < kWarps ? per_warp[threadIdx.x] : INT_MIN);
  return v;
}
__device__ float block_sum(float v) {
  __shared__ float per_warp[kWarps];
  v = warp_sum(v);
  if (threadIdx.x % 32 == 0) per_warp[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) v = warp_sum(threadIdx.x < kWarps ? per_warp[threadIdx.x] : 0.0f);
  return v;
}

__global__ void set_int(int* p, int value) { *p = value; }

__global__ void max_fast_kernel(const int* __restrict__ values, int n, int* result) {
  const int first = blockIdx.x * blockDim.x + threadIdx.x;
  const int stride = blockDim.x * gridDim.x;
  int m = INT_MIN;
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

__global__ void sum_fast_kernel(const float* __restrict__ values, int n, float* result) {
  const int first = blockIdx.x * blockDim.x + threadIdx.x;
  const int stride = blockDim.x * gridDim.x;
  float s = 0.0f;
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
  s = block_sum(s);
  if (threadIdx.x == 0) atomicAdd(result, s);
}

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

void max_fast(const int* values, int n, int* result) {
  set_int<<<1, 1>>>(result, INT_MIN);
  max_fast_kernel<<<filled_grid(n, 4), kThreads>>>(values, n, result);
}

void sum_fast(const float* values, int n, float* result) {
  PARLAB_CUDA_CHECK(cudaMemset(result, 0, sizeof(float)));
  sum_fast_kernel<<<filled_grid(n, 4), kThreads>>>(values, n, result);
}

void histogram_fast(const int* keys, int n, int* bins, int num_bins) {
  PARLAB_CUDA_CHECK(cudaMemset(bins, 0, static_cast<size_t>(num_bins) * sizeof(int)));
  // As many copies as fit in 16 KiB (keeps 8 blocks per SM resident), at most one per warp.
  const int fit = 16384 / (num_bins * static_cast<int>(sizeof(int)));
  const int copies = fit < 1 ? 1 : (fit > kWarps ? kWarps : fit);
  const size_t shared = static_cast<size_t>(copies) * num_bins * sizeof(int);
  histogram_fast_kernel<<<filled_grid(n, 4), kThreads, shared>>>(keys, n, bins, num_bins, copies);
}

void histogram_global(const int* keys, int n, int* bins, int num_bins) {
  PARLAB_CUDA_CHECK(cudaMemset(bins, 0, static_cast<size_t>(num_bins) * sizeof(int)));
  histogram_global_kernel<<<(n + kThreads - 1) / kThreads, kThreads>>>(keys, n, bins);
}

using parlab::harness::register_extra_task;
using parlab::harness::TaskContext;
namespace v = lab04::variants;

[[maybe_unused]] const bool kRegistered =
    register_extra_task({"max_fast", "max of ints: grid-stride int4 loads + warp shuffles",
                         [](TaskContext& ctx) {
                           v::run_reduction<int, int>(ctx, "max_fast", "ints", "max", max_fast);
                         }}) &&
    register_extra_task({"sum_fast", "float sum: grid-stride float4 loads + warp shuffles",
                         [](TaskContext& ctx) {
                           v::run_reduction<float, float>(ctx, "sum_fast", "floats", "sum",
                                                          sum_fast);
                         }}) &&
    register_extra_task({"histogram_fast", "histogram: per-warp shared copies, int4 loads",
                         [](TaskContext& ctx) {
                           v::run_histogram(ctx, "histogram_fast", histogram_fast);
                         }}) &&
    register_extra_task({"histogram_global", "histogram: one global atomicAdd per key",
                         [](TaskContext& ctx) {
                           v::run_histogram(ctx, "histogram_global", histogram_global);
                         }});

}  // namespace
