"""Fake (Python track): the two classic launch mistakes of a first Numba kernel, one per
function, the heat functions not started yet. saxpy's kernel has no bounds check (the
last block's extra threads index past the arrays: an IndexError in Numba's simulator, at
the kernel's line); vector_add and matrix_scale round the number of blocks down, so the
grid does not cover the data (the last partial block's elements stay NaN)."""

from numba import cuda


@cuda.jit
def vector_add_kernel(a, b, c, n):
    i = cuda.grid(1)
    if i < n:
        c[i] = a[i] + b[i]


def vector_add(a, b, c, n):
    vector_add_kernel[n // 256, 256](a, b, c, n)  # rounded down


@cuda.jit
def saxpy_kernel(alpha, x, y, out, n):
    i = cuda.grid(1)
    out[i] = alpha * x[i] + y[i]  # no `if i < n:`


def saxpy(alpha, x, y, out, n):
    saxpy_kernel[(n + 255) // 256, 256](alpha, x, y, out, n)


@cuda.jit
def matrix_scale_kernel(alpha, src, out, rows, cols):
    col, row = cuda.grid(2)
    if row < rows and col < cols:
        out[row, col] = alpha * src[row, col]


def matrix_scale(alpha, src, out, rows, cols):
    matrix_scale_kernel[(cols // 32, rows // 8), (32, 8)](alpha, src, out, rows, cols)  # rounded down


def heat_step(src, dst, nx, ny, r):
    pass


def heat_solve(initial, out, work, change, nx, ny, r, tol, max_iters, check_every):
    return 0
