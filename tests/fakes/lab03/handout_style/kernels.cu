// A correct lab03 solution written as the handout and the skeleton's TODOs suggest:
// 256-thread blocks, 16 x 16 blocks for the grids (not the reference's
// tile shape), the change measured by a kernel writing |new - old| per point and a
// maximum taken on the host. It must get full marks in sim and no warp-divergence
// note: its branches (bounds checks, boundary copy) are the ones every solution has.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "api.hpp"
#include "parlab/harness/gpu/cuda_check.hpp"

namespace lab03 {

__global__ void vector_add_kernel(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

void vector_add(const float* a, const float* b, float* c, int n) {
  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  vector_add_kernel<<<blocks, threads>>>(a, b, c, n);
}

__global__ void saxpy_kernel(float alpha, const float* x, const float* y, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = alpha * x[i] + y[i];
}

void saxpy(float alpha, const float* x, const float* y, float* out, int n) {
  const int threads = 256;
  saxpy_kernel<<<(n + threads - 1) / threads, threads>>>(alpha, x, y, out, n);
}

__global__ void matrix_scale_kernel(float alpha, const float* in, float* out, int rows,
                                    int cols) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) out[row * cols + col] = alpha * in[row * cols + col];
}

void matrix_scale(float alpha, const float* in, float* out, int rows, int cols) {
  dim3 block(32, 8);
  dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
  matrix_scale_kernel<<<grid, block>>>(alpha, in, out, rows, cols);
}

__global__ void heat_step_kernel(const float* in, float* out, int nx, int ny, float r) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny) return;
  const int p = y * nx + x;
  if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
    out[p] = in[p];
  } else {
    out[p] = in[p] + r * (in[p - 1] + in[p + 1] + in[p - nx] + in[p + nx] - 4.0f * in[p]);
  }
}

__global__ void change_kernel(const float* old_grid, const float* new_grid, float* change,
                              int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) change[i] = fabsf(new_grid[i] - old_grid[i]);
}

dim3 heat_grid(int nx, int ny, dim3 block) {
  return dim3((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
}

void heat_step(const float* in, float* out, int nx, int ny, float r) {
  const dim3 block(16, 16);
  heat_step_kernel<<<heat_grid(nx, ny, block), block>>>(in, out, nx, ny, r);
}

std::int64_t heat_solve(const float* initial, float* out, float* work, float* change, int nx,
                        int ny, float r, float tol, std::int64_t max_iters, int check_every) {
  const dim3 block(16, 16);
  const int count = nx * ny;
  std::vector<float> host_change(static_cast<std::size_t>(count));
  const float* src = initial;
  float* dst = out;
  std::int64_t steps = 0;
  while (steps < max_iters) {
    heat_step_kernel<<<heat_grid(nx, ny, block), block>>>(src, dst, nx, ny, r);
    PARLAB_CUDA_CHECK(cudaGetLastError());
    ++steps;
    if (steps % check_every == 0) {
      change_kernel<<<(count + 255) / 256, 256>>>(src, dst, change, count);
      PARLAB_CUDA_CHECK(cudaGetLastError());
      PARLAB_CUDA_CHECK(cudaMemcpy(host_change.data(), change, sizeof(float) * host_change.size(),
                                   cudaMemcpyDeviceToHost));
      const float largest = *std::max_element(host_change.begin(), host_change.end());
      src = dst;
      dst = dst == out ? work : out;
      if (largest < tol) break;
    } else {
      src = dst;
      dst = dst == out ? work : out;
    }
  }
  if (src != out) {
    PARLAB_CUDA_CHECK(cudaMemcpy(out, src, sizeof(float) * static_cast<std::size_t>(count),
                                 cudaMemcpyDeviceToDevice));
  }
  return steps;
}

}  // namespace lab03
