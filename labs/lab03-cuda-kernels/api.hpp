#pragma once
// Lab 03: CUDA kernels. The fixed signatures your kernels.cu implements; the grader's
// driver.cpp calls them. Do not change this file: the grader compiles your kernels.cu
// against its own copy.
//
// Every pointer below is a DEVICE pointer (memory from cudaMalloc). The driver owns
// the allocations and the host<->device copies, so the report can show transfer time
// and kernel time apart. Your job in each function: write the kernel(s), choose the
// launch configuration (block size and grid size), launch, and return. You do not need
// to call cudaDeviceSynchronize: the driver synchronizes and checks for errors after
// every call (a bad launch or an out-of-bounds access is reported naming your function).
//
// Output buffers are filled with NaN bytes (0xFF) before every call: an element your
// kernel does not write shows up as NaN in the comparison.
//
// Layouts: matrices and grids are row-major. Element (row, col) of a rows x cols matrix
// is at index row * cols + col; point (x, y) of an nx x ny grid (nx columns, ny rows)
// is at index y * nx + x. Consecutive threads should touch consecutive addresses, so
// let threadIdx.x / blockIdx.x run along a row (the column index).
#include <cstdint>

namespace lab03 {

// c[i] = a[i] + b[i] for 0 <= i < n (n >= 1). One thread per element; n is usually not
// a multiple of your block size, so the last block needs a bounds check.
void vector_add(const float* a, const float* b, float* c, int n);

// out[i] = alpha * x[i] + y[i] for 0 <= i < n (n >= 1). ("Single-precision A*X Plus Y",
// the BLAS level-1 routine, written out of place here so unwritten elements show.)
void saxpy(float alpha, const float* x, const float* y, float* out, int n);

// out[r * cols + c] = alpha * in[r * cols + c] for every row r < rows and column c < cols
// (rows, cols >= 1; not square in general). Launch a 2D grid of 2D blocks: x covers the
// columns, y the rows; bounds-check both.
void matrix_scale(float alpha, const float* in, float* out, int rows, int cols);

// One Jacobi step of 2D heat diffusion on an nx x ny grid (nx, ny >= 1), fixed boundary:
//   interior point (0 < x < nx-1 and 0 < y < ny-1):
//     out[p] = in[p] + r * (in[p - 1] + in[p + 1] + in[p - nx] + in[p + nx] - 4 * in[p])
//   boundary point (first or last row or column): out[p] = in[p]   (copied, not updated)
// with p = y * nx + x. 0 < r <= 0.25 (the explicit scheme is stable up to 0.25). Every
// output point is written, the boundary included: out is poisoned before the call.
void heat_step(const float* in, float* out, int nx, int ny, float r);

// Iterates heat_step from `initial` until the grid stops changing; returns the number
// of steps done and leaves the final grid in `out`. The stopping rule, exactly:
//
//   steps = 0
//   while steps < max_iters:
//       one heat_step (the new grid from the previous one); steps += 1
//       if steps % check_every == 0:
//           change = max over all points of |new - previous|   (of this step only)
//           if change < tol: stop
//   return steps          (the grid after `steps` steps is in out)
//
// So the change is only measured every check_every steps (measuring costs a reduction
// and a copy to the host; checking rarely amortizes it), and the result is always a
// multiple of check_every unless max_iters is reached first. tol = 0 means "run exactly
// max_iters steps". max_iters >= 1, check_every >= 1.
//
// Buffers, all nx * ny floats on the device: `initial` (read only), `out` and `work`
// (scratch for ping-ponging: read from one, write the other, swap the pointers), and
// `change` (scratch you may use for the change measurement, e.g. one |new - old| per
// point or one maximum per block). out, work and change are poisoned before the call.
// If the final grid ends up in `work`, copy it to `out` (cudaMemcpyDeviceToDevice).
std::int64_t heat_solve(const float* initial, float* out, float* work, float* change, int nx,
                        int ny, float r, float tol, std::int64_t max_iters, int check_every);

}  // namespace lab03
