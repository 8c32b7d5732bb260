"""Lab 03, Python track: what your kernels.py implements; the grader's driver.py calls
it. Do not change this file. The rules are those of api.hpp (README.md).

Every array below is a DEVICE array (numba.cuda, float32) that the driver allocated
and copied: your function writes its kernel(s) with @cuda.jit, chooses the launch
configuration (blocks and threads per block), launches, and returns. The driver waits
for the kernels (cuda.synchronize()) and copies the outputs back. Outputs are filled
with NaN before every call: an element your kernel does not write shows up as NaN.

Matrices and grids are 2D arrays, indexed [row, col] and [y, x]: a rows x cols matrix
has shape (rows, cols), an nx x ny heat grid shape (ny, nx). Consecutive threads should
touch consecutive addresses, so cuda.grid(2)'s first index (x, from threadIdx.x) runs
along a row: `col, row = cuda.grid(2)`, then `out[row, col]`.

The functions (in your kernels.py):
  vector_add(a, b, c, n)                c[i] = a[i] + b[i] for i < n (n >= 1)
  saxpy(alpha, x, y, out, n)            out[i] = alpha * x[i] + y[i]
  matrix_scale(alpha, src, out, rows, cols)
                                        out[r, c] = alpha * src[r, c]: a 2D grid of 2D
                                        blocks, x over the columns, y over the rows
  heat_step(src, dst, nx, ny, r)        one Jacobi step, fixed boundary:
      interior (0 < x < nx-1 and 0 < y < ny-1):
        dst[y, x] = src[y, x] + r * (src[y, x-1] + src[y, x+1] + src[y-1, x] + src[y+1, x]
                                     - 4 * src[y, x])
      boundary (first or last row or column): dst[y, x] = src[y, x]   (every point written)
  heat_solve(initial, out, work, change, nx, ny, r, tol, max_iters, check_every) -> int
      steps = 0
      while steps < max_iters:
          one heat_step (the new grid from the previous one); steps += 1
          if steps % check_every == 0:
              change = max over all points of |new - previous|   (of this step only)
              if change < tol: stop
      return steps          (the grid after `steps` steps must be in out)
      `work` and `change` ((ny, nx) each) are scratch: ping-pong between out and work;
      `change` may hold one |new - old| per point or one maximum per block. If the final
      grid ends in work, copy it to out (out.copy_to_device(work)).

Without a GPU, the grader runs your kernels in Numba's CUDA simulator: one Python thread
per CUDA thread, so the correctness data is small there; an index past an array's end
raises IndexError, which fails the test naming your line."""
