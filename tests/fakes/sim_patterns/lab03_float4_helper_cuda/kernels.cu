// Fake lab03 kernels.cu: the reference with the two public patterns
// the simulator used to punish, each correct on a GPU:
//   - matrix_scale with float4 loads (through __ldg) and float4 stores when a row is a
//     whole number of float4s (each thread scales 4 consecutive columns), the scalar
//     kernel otherwise: one 16-byte access per lane, coalesced; the counter-graded
//     bandwidth check must give full points and no "uncoalesced" note;
//   - heat_step keeping one byte per thread in shared memory (threads storing
//     neighbouring bytes of one word: no data race);
//   - NVIDIA's helper_cuda.h way of checking calls and picking the device
//   (helper_cuda.h / helper_string.h here are this project's own stand-ins of the same
//   shape: guarded by __DRIVER_TYPES_H__ / __CUDA_RUNTIME_H__, asking for the compute
//   mode, integrated flag, SM version and clock with cudaDeviceGetAttribute).
// Was the reference:
#include <algorithm>
#include <cstdint>
#include <vector>

#include "api.hpp"
#include "parlab/harness/gpu/cuda_check.hpp"
#include "helper_cuda.h"

namespace lab03 {
namespace {

constexpr int kBlock = 256;           // 1D kernels: 8 warps per block
constexpr int kTileX = 32, kTileY = 8;  // 2D kernels: a warp covers 32 consecutive columns

// Enough blocks of `block` threads to cover n elements (the last one partly idle).
int blocks_for(int n, int block) { return (n + block - 1) / block; }

dim3 grid_2d(int cols, int rows) { return dim3(blocks_for(cols, kTileX), blocks_for(rows, kTileY)); }

__global__ void vector_add_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                  float* __restrict__ c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];  // the last block has threads past the end
}

__global__ void saxpy_kernel(float alpha, const float* __restrict__ x,
                             const float* __restrict__ y, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = alpha * x[i] + y[i];
}

__global__ void matrix_scale_kernel(float alpha, const float* __restrict__ in,
                                    float* __restrict__ out, int rows, int cols) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;  // x along a row: coalesced
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) {
    const int i = row * cols + col;
    out[i] = alpha * in[i];
  }
}

// Four columns per thread: cols % 4 == 0, so every row starts on a float4 (cudaMalloc
// memory is at least 256-byte aligned on a GPU).
__global__ void matrix_scale_float4_kernel(float alpha, const float* __restrict__ in,
                                           float* __restrict__ out, int rows, int cols) {
  const int quad = blockIdx.x * blockDim.x + threadIdx.x;  // x along a row: coalesced
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && quad < cols / 4) {
    const int i = row * (cols / 4) + quad;
    float4 v = __ldg(reinterpret_cast<const float4*>(in) + i);
    v.x *= alpha;
    v.y *= alpha;
    v.z *= alpha;
    v.w *= alpha;
    reinterpret_cast<float4*>(out)[i] = v;
  }
}

// One Jacobi step. With kMeasure, every block also writes the largest |new - old| of
// its points to block_max[block index]: a shared-memory tree reduction. Threads
// outside the grid take part with a change of 0: none may return before the barriers.
template <bool kMeasure>
__global__ void heat_step_kernel(const float* __restrict__ in, float* __restrict__ out, int nx,
                                 int ny, float r, float* __restrict__ block_max) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  // One byte per thread in shared memory (neighbouring threads store neighbouring bytes
  // of one word): whether the point is interior, read back after the barrier.
  __shared__ unsigned char interior[kTileX * kTileY];
  const int me = threadIdx.y * blockDim.x + threadIdx.x;
  interior[me] = static_cast<unsigned char>((x > 0) & (y > 0) & (x < nx - 1) & (y < ny - 1));
  __syncthreads();
  float change = 0.0f;
  if (x < nx && y < ny) {
    const int p = y * nx + x;
    float v = in[p];
    if (interior[me] != 0) {
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
    __syncthreads();
    for (int s = kTileX * kTileY / 2; s > 0; s /= 2) {
      if (t < s) partial[t] = fmaxf(partial[t], partial[t + s]);
      __syncthreads();
    }
    if (t == 0) block_max[blockIdx.y * gridDim.x + blockIdx.x] = partial[0];
  }
}

}  // namespace

void vector_add(const float* a, const float* b, float* c, int n) {
  vector_add_kernel<<<blocks_for(n, kBlock), kBlock>>>(a, b, c, n);
}

void saxpy(float alpha, const float* x, const float* y, float* out, int n) {
  saxpy_kernel<<<blocks_for(n, kBlock), kBlock>>>(alpha, x, y, out, n);
}

void matrix_scale(float alpha, const float* in, float* out, int rows, int cols) {
  static const int device = gpuGetMaxGflopsDeviceId();  // helper_cuda.h, once
  checkCudaErrors(cudaSetDevice(device));
  if (cols % 4 == 0) {
    matrix_scale_float4_kernel<<<grid_2d(cols / 4, rows), dim3(kTileX, kTileY)>>>(alpha, in, out,
                                                                                  rows, cols);
  } else {
    matrix_scale_kernel<<<grid_2d(cols, rows), dim3(kTileX, kTileY)>>>(alpha, in, out, rows, cols);
  }
  getLastCudaError("matrix_scale");
}

void heat_step(const float* in, float* out, int nx, int ny, float r) {
  heat_step_kernel<false><<<grid_2d(nx, ny), dim3(kTileX, kTileY)>>>(in, out, nx, ny, r, nullptr);
}

std::int64_t heat_solve(const float* initial, float* out, float* work, float* change, int nx,
                        int ny, float r, float tol, std::int64_t max_iters, int check_every) {
  const dim3 grid = grid_2d(nx, ny);
  const dim3 block(kTileX, kTileY);
  // One maximum per block comes back at a check: a few KB instead of the whole grid.
  // (There are never more blocks than points, so `change` is large enough.)
  std::vector<float> block_max(static_cast<std::size_t>(grid.x) * grid.y);
  const float* src = initial;  // step 1 reads the initial grid, then out and work alternate
  float* dst = out;
  std::int64_t steps = 0;
  while (steps < max_iters) {
    ++steps;
    const bool check = steps % check_every == 0;
    if (check) {
      heat_step_kernel<true><<<grid, block>>>(src, dst, nx, ny, r, change);
    } else {
      heat_step_kernel<false><<<grid, block>>>(src, dst, nx, ny, r, nullptr);
    }
    PARLAB_CUDA_CHECK(cudaGetLastError());
    src = dst;
    dst = dst == out ? work : out;
    if (check) {
      // cudaMemcpy waits for the kernel: the only synchronization the loop needs.
      PARLAB_CUDA_CHECK(cudaMemcpy(block_max.data(), change, block_max.size() * sizeof(float),
                                   cudaMemcpyDeviceToHost));
      if (*std::max_element(block_max.begin(), block_max.end()) < tol) break;
    }
  }
  if (src != out) {
    PARLAB_CUDA_CHECK(cudaMemcpy(out, src, sizeof(float) * static_cast<std::size_t>(nx) * ny,
                                 cudaMemcpyDeviceToDevice));
  }
  return steps;
}

}  // namespace lab03
