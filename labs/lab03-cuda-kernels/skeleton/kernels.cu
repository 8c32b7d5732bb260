// Lab 03: your solution. Implement the functions of api.hpp here (read api.hpp and
// README.md first). For each one: write the kernel, choose the launch configuration
// in the host function, launch. This file compiles and runs as given, but no kernel is
// launched yet, so every output stays poisoned (NaN) and every test fails until you
// fill in the TODOs.
//
// Build and test:  grade lab03 path/to/this/dir              (on a GPU, or simulated)
//                  grade lab03 path/to/this/dir --device sim  (no GPU needed)
#include <cstdint>

#include "api.hpp"
// PARLAB_CUDA_CHECK(call) checks a CUDA runtime call and reports the error, the call
// and the line (e.g. PARLAB_CUDA_CHECK(cudaMemcpy(...)); ). Use it for every call.
#include "parlab/harness/gpu/cuda_check.hpp"

namespace lab03 {

// ---- vector_add -------------------------------------------------------------------
__global__ void vector_add_kernel(const float* a, const float* b, float* c, int n) {
  // TODO(lab03): this thread's element is i = blockIdx.x * blockDim.x + threadIdx.x.
  // The grid has whole blocks, so the last block has threads past the end: only
  // threads with i < n may write c[i] = a[i] + b[i].
  (void)a, (void)b, (void)c, (void)n;  // (delete once you use them)
}

void vector_add(const float* a, const float* b, float* c, int n) {
  // TODO(lab03): pick a block size (a multiple of 32, e.g. 256), compute how many
  // blocks cover n elements (round UP: n = 257 needs 2 blocks of 256), and launch:
  //   vector_add_kernel<<<blocks, threads_per_block>>>(a, b, c, n);
  (void)a, (void)b, (void)c, (void)n;
}

// ---- saxpy --------------------------------------------------------------------------
__global__ void saxpy_kernel(float alpha, const float* x, const float* y, float* out, int n) {
  // TODO(lab03): out[i] = alpha * x[i] + y[i], with the same indexing and bounds check.
  (void)alpha, (void)x, (void)y, (void)out, (void)n;
}

void saxpy(float alpha, const float* x, const float* y, float* out, int n) {
  // TODO(lab03): launch saxpy_kernel over n elements.
  (void)alpha, (void)x, (void)y, (void)out, (void)n;
}

// ---- matrix_scale -------------------------------------------------------------------
__global__ void matrix_scale_kernel(float alpha, const float* in, float* out, int rows,
                                    int cols) {
  // TODO(lab03): a 2D grid of 2D blocks. col from the x components (blockIdx.x,
  // blockDim.x, threadIdx.x), row from the y components. Bounds-check BOTH, then
  // out[row * cols + col] = alpha * in[row * cols + col].
  (void)alpha, (void)in, (void)out, (void)rows, (void)cols;
}

void matrix_scale(float alpha, const float* in, float* out, int rows, int cols) {
  // TODO(lab03): dim3 block(32, 8); dim3 grid(blocks covering cols, blocks covering rows);
  // matrix_scale_kernel<<<grid, block>>>(...). Why 32 along x: README, "Coalescing".
  (void)alpha, (void)in, (void)out, (void)rows, (void)cols;
}

// ---- heat_step ----------------------------------------------------------------------
__global__ void heat_step_kernel(const float* in, float* out, int nx, int ny, float r) {
  // TODO(lab03): one thread per grid point (x from the x components, y from the y
  // components, p = y * nx + x). Interior points get the update of api.hpp, boundary
  // points are copied. Points outside the grid (x >= nx or y >= ny) do nothing.
  (void)in, (void)out, (void)nx, (void)ny, (void)r;
}

void heat_step(const float* in, float* out, int nx, int ny, float r) {
  // TODO(lab03): a 2D launch covering nx columns and ny rows.
  (void)in, (void)out, (void)nx, (void)ny, (void)r;
}

// ---- heat_solve ---------------------------------------------------------------------
std::int64_t heat_solve(const float* initial, float* out, float* work, float* change, int nx,
                        int ny, float r, float tol, std::int64_t max_iters, int check_every) {
  // TODO(lab03): the loop of api.hpp. Hints:
  //  - Ping-pong: step 1 reads `initial` and writes `out`; then read the grid you just
  //    wrote and write the other of out/work; swap the two pointers after each step.
  //    Never read and write the same grid in one step (README, "Jacobi").
  //  - On a checked step (steps % check_every == 0), also measure the change. Simplest:
  //    a kernel that writes |new - old| for every point into `change`, then cudaMemcpy
  //    it to a std::vector on the host and take the maximum there. Faster: let each
  //    block reduce its points in shared memory and write one maximum per block
  //    (README, "Measuring the change").
  //  - cudaMemcpy to the host waits for the kernels before it: no extra sync needed.
  //  - At the end, if the last grid written is `work`, copy it to `out`
  //    (cudaMemcpyDeviceToDevice). Return the number of steps done.
  (void)initial, (void)out, (void)work, (void)change, (void)nx, (void)ny, (void)r, (void)tol,
      (void)max_iters, (void)check_every;
  return 0;
}

}  // namespace lab03
