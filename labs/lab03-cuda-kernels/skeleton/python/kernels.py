"""Lab 03, Python track: your solution. Read api.py for what each function must do, and
README.md ("The Python track") for the steps. Every function below runs but launches no
kernel yet, so each output stays poisoned (NaN) and every test fails, naming the first
element never written, until you fill in the TODOs.

Test it:  grade lab03 path/to/this/dir   (without a GPU: Numba's CUDA simulator)"""

from numba import cuda, float32  # noqa: F401 - the kernels use both

# ---- vector_add ---------------------------------------------------------------------


@cuda.jit
def vector_add_kernel(a, b, c, n):
    # TODO: this thread's element is i = cuda.grid(1) (blockIdx.x * blockDim.x +
    # threadIdx.x). The grid has whole blocks, so the last block has threads past the
    # end: only threads with i < n may write c[i] = a[i] + b[i].
    pass


def vector_add(a, b, c, n):
    # TODO: pick a block size (a multiple of 32, e.g. 256), compute how many blocks
    # cover n elements (round UP: n = 257 needs 2 blocks of 256), and launch:
    #   vector_add_kernel[blocks, threads_per_block](a, b, c, n)
    pass


# ---- saxpy --------------------------------------------------------------------------


@cuda.jit
def saxpy_kernel(alpha, x, y, out, n):
    # TODO: out[i] = alpha * x[i] + y[i], with the same indexing and bounds check.
    pass


def saxpy(alpha, x, y, out, n):
    # TODO: launch saxpy_kernel over n elements.
    pass


# ---- matrix_scale -------------------------------------------------------------------


@cuda.jit
def matrix_scale_kernel(alpha, src, out, rows, cols):
    # TODO: a 2D grid of 2D blocks: col, row = cuda.grid(2) (x along a row). Bounds-check
    # BOTH, then out[row, col] = alpha * src[row, col].
    pass


def matrix_scale(alpha, src, out, rows, cols):
    # TODO: threads = (32, 8); blocks = (blocks covering cols, blocks covering rows);
    # matrix_scale_kernel[blocks, threads](...). Why 32 along x: README, "Coalescing".
    pass


# ---- heat_step ----------------------------------------------------------------------


@cuda.jit
def heat_step_kernel(src, dst, nx, ny, r):
    # TODO: x, y = cuda.grid(2); skip threads outside the grid (x >= nx or y >= ny).
    # Boundary points (x == 0, x == nx - 1, y == 0, y == ny - 1) copy src[y, x]; interior
    # points apply the update of api.py from the 4 neighbours.
    pass


def heat_step(src, dst, nx, ny, r):
    # TODO: launch heat_step_kernel on a 2D grid covering nx columns and ny rows.
    pass


# ---- heat_solve ---------------------------------------------------------------------


def heat_solve(initial, out, work, change, nx, ny, r, tol, max_iters, check_every):
    # TODO: the loop of api.py. Step 1 reads `initial` and writes `out`; then out and
    # work alternate (swap the names after every step). On every check_every-th step,
    # measure the largest |new - old| (e.g. a kernel writing one |new - old| per point
    # into `change`, then change.copy_to_host().max()) and stop when it is below tol.
    # Return the number of steps; if the last step wrote `work`, copy it into out:
    # out.copy_to_device(work).
    return 0
