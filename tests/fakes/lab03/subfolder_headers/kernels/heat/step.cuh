#pragma once
// One Jacobi step; the reduction lives next door (a quoted include from a sub-folder).
#include "reduce.cuh"

template <bool kMeasure>
__global__ void heat_step_kernel(const float* __restrict__ in, float* __restrict__ out, int nx,
                                 int ny, float r, float* __restrict__ block_max) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  float change = 0.0f;
  if (x < nx && y < ny) {
    const int p = y * nx + x;
    float v = in[p];
    if (x > 0 && y > 0 && x < nx - 1 && y < ny - 1) {
      const float next = v + r * (in[p - 1] + in[p + 1] + in[p - nx] + in[p + nx] - 4.0f * v);
      change = fabsf(next - v);
      v = next;
    }
    out[p] = v;  // the boundary is copied: out was poisoned
  }
  if constexpr (kMeasure) {
    __shared__ float partial[kTileX * kTileY];
    const int t = threadIdx.y * blockDim.x + threadIdx.x;
    partial[t] = change;
    block_max_reduce(partial, t);
    if (t == 0) block_max[blockIdx.y * gridDim.x + blockIdx.x] = partial[0];
  }
}
