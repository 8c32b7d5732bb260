// Fake lab03 kernels.cu: the reference with its kernels moved into headers in
// sub-folders, as larger projects lay code out: kernels/elementwise.cuh, and
// kernels/heat/step.cuh which includes its neighbour reduce.cuh; the block sizes in
// common/sizes.hpp (a plain header, not rewritten). Every build (GPU, sim) must stage
// the sub-folders and find the headers; in sim it gets full correctness marks.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "api.hpp"
#include "common/sizes.hpp"
#include "parlab/harness/gpu/cuda_check.hpp"

namespace lab03 {
namespace {

// Enough blocks of `block` threads to cover n elements (the last one partly idle).
int blocks_for(int n, int block) { return (n + block - 1) / block; }

dim3 grid_2d(int cols, int rows) { return dim3(blocks_for(cols, kTileX), blocks_for(rows, kTileY)); }

#include "kernels/elementwise.cuh"
#include "kernels/heat/step.cuh"

}  // namespace

void vector_add(const float* a, const float* b, float* c, int n) {
  vector_add_kernel<<<blocks_for(n, kBlock), kBlock>>>(a, b, c, n);
}

void saxpy(float alpha, const float* x, const float* y, float* out, int n) {
  saxpy_kernel<<<blocks_for(n, kBlock), kBlock>>>(alpha, x, y, out, n);
}

void matrix_scale(float alpha, const float* in, float* out, int rows, int cols) {
  matrix_scale_kernel<<<grid_2d(cols, rows), dim3(kTileX, kTileY)>>>(alpha, in, out, rows, cols);
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
