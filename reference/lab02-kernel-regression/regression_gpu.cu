// Lab 02 reference, Part 2: predict_serial on the GPU, aimed at the device's limits.
// One fused kernel: a thread owns one query and walks the train set, which its block
// stages in shared memory tile by tile (coalesced loads; every point of a tile is then
// read by all the block's threads at once, a broadcast). Each thread keeps an ONLINE
// log-sum-exp: the nearest squared distance so far, dmin, and the sums of w and w*y
// with w = exp(-(dist - dmin) / (2h^2)), rescaled when dmin drops. The m x n matrix of
// weights is never materialized, so predict_gpu needs no scratch memory at all (no
// cudaMalloc: any memory budget is respected).
//
// Choices, and why:
//   - exp2f((dmin - dist) * c) with c = log2(e) / (2h^2) folded in on the host: one
//     MUFU.EX2 per pair instead of expf's longer sequence. Its cost in accuracy is the
//     rounding of the product, a relative 6e-8 of the exponent, i.e. < 2e-6 on any
//     weight above 2^-30: below the error the float distances already carry. (__expf is
//     the same instruction with log2(e) multiplied in separately: no more accurate.)
//   - Float arithmetic per pair; every ~256 points a thread adds its float sums into
//     double totals, so 2^24 weights near 1 (a huge h) do not lose their last
//     additions to rounding.
//   - Small m: one thread per query would leave most of the GPU idle, so the block's
//     warps then split each tile among `groups` groups (2, 4 or 8) and merge their
//     partial log-sum-exps at the end. A group is whole warps: the broadcast stays.
//   - d is a template parameter (1..64, padded up to the next of a few sizes with zero
//     coordinates, which add nothing), so a query's coordinates live in registers.
//     Wider points (d > 64, beyond the lab's generator) use a simple untiled kernel.
// Against nw_cpu's predict_naive (double), in the simulator, |y| ~ 1: errors below 1e-6
// absolute and 2e-6 relative for every h tried (1e-3 to 1e30); relative errors are
// larger only where the prediction itself is near 0, so compare with an atol too.
#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "api.hpp"
#include "parlab/harness/gpu/cuda_check.hpp"

namespace {

constexpr int kThreads = 256;    // per block: 8 warps
constexpr int kMaxGroups = 8;    // train-set splits per block: each still a whole warp
constexpr int kBlocksPerSm = 8;  // work wanted per SM before splitting the train set
constexpr int kMaxTiledD = 64;   // wider points take the untiled kernel
constexpr int kFlushEvery = 256;  // points per float partial sum (untiled kernel)

// Train points per shared-memory tile: 32 KiB of coordinates at most.
template <int D>
constexpr int kTilePoints = D <= 32 ? 256 : 128;

// One query's running log-sum-exp. Sums are relative to exp2(-dmin * c). dmin starts
// at FLT_MAX, not infinity, so the first rescale multiplies by exp2(-huge) = 0 and
// never computes inf * 0 (c is 0 for a huge h).
struct Lse {
  float dmin = FLT_MAX;
  float tile_w = 0.0f, tile_wy = 0.0f;  // since the last flush
  double w = 0.0, wy = 0.0;             // everything before
};

__device__ __forceinline__ void add_point(Lse& s, float dist, float y, float c) {
  if (dist < s.dmin) {  // a nearer point: re-base every sum on it (rare after a while)
    const float f = exp2f((dist - s.dmin) * c);
    s.tile_w *= f;
    s.tile_wy *= f;
    s.w *= f;
    s.wy *= f;
    s.dmin = dist;
  }
  const float w = exp2f((s.dmin - dist) * c);  // exactly 1 for the nearest point
  s.tile_w += w;
  s.tile_wy = fmaf(w, y, s.tile_wy);
}

__device__ __forceinline__ void flush(Lse& s) {
  s.w += s.tile_w;
  s.wy += s.tile_wy;
  s.tile_w = 0.0f;
  s.tile_wy = 0.0f;
}

// Adds another thread's flushed state (dmin, w, wy) for the same query.
__device__ void merge(Lse& s, float dmin, float w, float wy, float c) {
  if (dmin < s.dmin) {
    const float f = exp2f((dmin - s.dmin) * c);
    s.w *= f;
    s.wy *= f;
    s.dmin = dmin;
  }
  const float f = exp2f((s.dmin - dmin) * c);  // 0 for a group that saw no point
  s.w += static_cast<double>(f) * w;
  s.wy += static_cast<double>(f) * wy;
}

template <int D>
__device__ __forceinline__ float squared_distance(const float (&z)[D], const float* x) {
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < D; ++k) {
    const float t = z[k] - x[k];
    sum = fmaf(t, t, sum);
  }
  return sum;
}

// Train points [j0, j0 + count) into xs (D floats per point) and ys. Consecutive
// threads copy consecutive floats: coalesced. Padding coordinates are not written.
template <int D>
__device__ void stage_tile(const float* __restrict__ train_x, const float* __restrict__ train_y,
                           std::int64_t j0, int count, int d, float* xs, float* ys) {
  const float* src = train_x + j0 * d;
  if (d == D) {  // the same layout: a straight copy
    for (int e = threadIdx.x; e < count * D; e += kThreads) xs[e] = src[e];
  } else {
    for (int e = threadIdx.x; e < count * d; e += kThreads) xs[(e / d) * D + e % d] = src[e];
  }
  for (int j = threadIdx.x; j < count; j += kThreads) ys[j] = train_y[j0 + j];
}

// Block b owns queries [b * per_group, (b + 1) * per_group), per_group = kThreads /
// groups; group g (threads [g * per_group, (g + 1) * per_group)) takes points g,
// g + groups, ... of every tile. Threads without a query (the tail of the last block)
// still load tiles and reach every barrier; they only skip the final write.
template <int D>
__global__ void __launch_bounds__(kThreads)
    nw_tiled_kernel(const float* __restrict__ train_x, const float* __restrict__ train_y,
                    std::int64_t n, const float* __restrict__ query_x, std::int64_t m, int d,
                    float c, int groups, float* __restrict__ out) {
  constexpr int kTile = kTilePoints<D>;
  __shared__ __align__(16) float xs[kTile * D];
  __shared__ float ys[kTile];
  __shared__ float part_dmin[kThreads], part_w[kThreads], part_wy[kThreads];

  const int per_group = kThreads / groups;
  const int group = threadIdx.x / per_group;
  const int slot = threadIdx.x % per_group;
  const std::int64_t q = static_cast<std::int64_t>(blockIdx.x) * per_group + slot;

  float z[D];  // zero past d (and for a missing query): padding adds nothing
#pragma unroll
  for (int k = 0; k < D; ++k) z[k] = (q < m && k < d) ? query_x[q * d + k] : 0.0f;
  if (d != D) {  // the padding coordinates of the tile, once (staging never writes them)
    for (int e = threadIdx.x; e < kTile * D; e += kThreads) {
      if (e % D >= d) xs[e] = 0.0f;
    }
  }

  Lse s;
  int tile = 0;
  for (std::int64_t j0 = 0; j0 < n; j0 += kTile, ++tile) {
    const int count = static_cast<int>(n - j0 < kTile ? n - j0 : kTile);
    stage_tile<D>(train_x, train_y, j0, count, d, xs, ys);
    __syncthreads();  // the tile is complete before anyone reads it
#pragma unroll 4
    for (int j = group; j < count; j += groups) {
      add_point(s, squared_distance<D>(z, xs + j * D), ys[j], c);
    }
    // Every `groups` tiles: about kTile points per thread (double additions are slow
    // on consumer GPUs).
    if ((tile + 1) % groups == 0) flush(s);
    __syncthreads();  // everyone is done with the tile before it is overwritten
  }
  flush(s);

  if (groups > 1) {  // the same value in the whole block: all threads take this barrier
    part_dmin[threadIdx.x] = s.dmin;
    part_w[threadIdx.x] = static_cast<float>(s.w);
    part_wy[threadIdx.x] = static_cast<float>(s.wy);
    __syncthreads();
    if (group == 0) {
      for (int g = 1; g < groups; ++g) {
        const int t = g * per_group + slot;
        merge(s, part_dmin[t], part_w[t], part_wy[t], c);
      }
    }
  }
  // w >= 1: the nearest point's weight is exactly 1.
  if (group == 0 && q < m) out[q] = static_cast<float>(s.wy / s.w);
}

// d > kMaxTiledD: one thread per query, points read straight from global memory (all
// threads of a warp read the same point: one transaction, then L1). No barrier.
__global__ void nw_untiled_kernel(const float* __restrict__ train_x,
                                  const float* __restrict__ train_y, std::int64_t n,
                                  const float* __restrict__ query_x, std::int64_t m, int d,
                                  float c, float* __restrict__ out) {
  const std::int64_t q = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (q >= m) return;
  const float* z = query_x + q * d;
  Lse s;
  for (std::int64_t j = 0; j < n; ++j) {
    const float* x = train_x + j * d;
    float dist = 0.0f;
    for (int k = 0; k < d; ++k) {
      const float t = z[k] - x[k];
      dist = fmaf(t, t, dist);
    }
    add_point(s, dist, train_y[j], c);
    if (j % kFlushEvery == kFlushEvery - 1) flush(s);
  }
  flush(s);
  out[q] = static_cast<float>(s.wy / s.w);
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// exp(-dist / (2h^2)) = exp2(-dist * c). Computed in double; clamped so that it stays
// finite for any h > 0 (a tiny h then still gives the nearest point's y).
float exp2_factor(float h) {
  const double hd = h;
  const double c = 1.4426950408889634 / (2.0 * hd * hd);  // log2(e) / (2h^2)
  return static_cast<float>(std::min(c, static_cast<double>(FLT_MAX)));
}

void check_launch(const std::string& kernel) {
  const cudaError_t error = cudaGetLastError();
  if (error != cudaSuccess) {
    throw std::runtime_error("predict_gpu: launching " + kernel + " failed: " +
                             cudaGetErrorName(error) + " (" + cudaGetErrorString(error) + ")");
  }
}

// The fewest train-set splits per block (1, 2, 4, 8) that still give every SM
// kBlocksPerSm blocks; more splits only add merging.
int groups_for(std::int64_t m) {
  int device = 0;
  int sms = 1;
  PARLAB_CUDA_CHECK(cudaGetDevice(&device));
  PARLAB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  int groups = 1;
  while (groups < kMaxGroups && ceil_div(m, kThreads / groups) < std::int64_t{kBlocksPerSm} * sms) {
    groups *= 2;
  }
  return groups;
}

template <int D>
void launch_tiled(const lab02::Problem& p, float c, float* out) {
  const int groups = groups_for(p.m);
  const auto blocks = static_cast<unsigned>(ceil_div(p.m, kThreads / groups));
  nw_tiled_kernel<D><<<blocks, kThreads>>>(p.train_x, p.train_y, p.n, p.query_x, p.m, p.d, c,
                                           groups, out);
  check_launch("nw_tiled_kernel<" + std::to_string(D) + ">");
}

void launch_untiled(const lab02::Problem& p, float c, float* out) {
  const auto blocks = static_cast<unsigned>(ceil_div(p.m, kThreads));
  nw_untiled_kernel<<<blocks, kThreads>>>(p.train_x, p.train_y, p.n, p.query_x, p.m, p.d, c, out);
  check_launch("nw_untiled_kernel");
}

}  // namespace

namespace lab02 {

void predict_gpu(const Problem& p, float h, float* out, std::size_t budget_bytes) {
  (void)budget_bytes;  // nothing is allocated (see the top of the file)
  if (p.m < 1) return;
  const float c = exp2_factor(h);
  // d padded up to the next size with a compiled kernel (at most a third is padding).
  if (p.d <= 1) return launch_tiled<1>(p, c, out);
  if (p.d <= 2) return launch_tiled<2>(p, c, out);
  if (p.d <= 3) return launch_tiled<3>(p, c, out);
  if (p.d <= 4) return launch_tiled<4>(p, c, out);
  if (p.d <= 6) return launch_tiled<6>(p, c, out);
  if (p.d <= 8) return launch_tiled<8>(p, c, out);
  if (p.d <= 12) return launch_tiled<12>(p, c, out);
  if (p.d <= 16) return launch_tiled<16>(p, c, out);
  if (p.d <= 24) return launch_tiled<24>(p, c, out);
  if (p.d <= 32) return launch_tiled<32>(p, c, out);
  if (p.d <= 48) return launch_tiled<48>(p, c, out);
  if (p.d <= kMaxTiledD) return launch_tiled<kMaxTiledD>(p, c, out);
  launch_untiled(p, c, out);
}

}  // namespace lab02
