"""Lab 03 Python reference, in the form the assignment asks for (as kernels.cu): one
thread per element, a bounds check, the launch configuration computed in the host
function; heat_solve copies back one maximum per block. The baseline a Python
submission's speed is measured against."""

from numba import cuda, float32

BLOCK = 256              # 1D kernels: 8 warps per block
TILE_X, TILE_Y = 32, 8   # 2D kernels: a warp covers 32 consecutive columns


def blocks_for(n, block):
    """Enough blocks of `block` threads to cover n elements (the last one partly idle)."""
    return (n + block - 1) // block


def grid_2d(cols, rows):
    return (blocks_for(cols, TILE_X), blocks_for(rows, TILE_Y))


@cuda.jit
def vector_add_kernel(a, b, c, n):
    i = cuda.grid(1)
    if i < n:  # the last block has threads past the end
        c[i] = a[i] + b[i]


@cuda.jit
def saxpy_kernel(alpha, x, y, out, n):
    i = cuda.grid(1)
    if i < n:
        out[i] = alpha * x[i] + y[i]


@cuda.jit
def matrix_scale_kernel(alpha, src, out, rows, cols):
    col, row = cuda.grid(2)  # x along a row: coalesced
    if row < rows and col < cols:
        out[row, col] = alpha * src[row, col]


@cuda.jit
def heat_step_kernel(src, dst, nx, ny, r, block_max, measure):
    """One Jacobi step. With `measure`, every block also writes the largest |new - old|
    of its points to block_max[block index]: a shared-memory tree reduction. Threads
    outside the grid take part with a change of 0: none may return before the barriers."""
    x, y = cuda.grid(2)
    change = float32(0.0)
    if x < nx and y < ny:
        v = src[y, x]
        if x > 0 and y > 0 and x < nx - 1 and y < ny - 1:
            new = v + r * (src[y, x - 1] + src[y, x + 1] + src[y - 1, x] + src[y + 1, x]
                           - float32(4.0) * v)
            change = abs(new - v)
            v = new
        dst[y, x] = v  # the boundary is copied: dst was poisoned
    if measure:
        partial = cuda.shared.array(TILE_X * TILE_Y, float32)
        t = cuda.threadIdx.y * cuda.blockDim.x + cuda.threadIdx.x
        partial[t] = change
        cuda.syncthreads()
        s = TILE_X * TILE_Y // 2
        while s > 0:
            if t < s:
                partial[t] = max(partial[t], partial[t + s])
            cuda.syncthreads()
            s //= 2
        if t == 0:
            block_max[cuda.blockIdx.y * cuda.gridDim.x + cuda.blockIdx.x] = partial[0]


def vector_add(a, b, c, n):
    vector_add_kernel[blocks_for(n, BLOCK), BLOCK](a, b, c, n)


def saxpy(alpha, x, y, out, n):
    saxpy_kernel[blocks_for(n, BLOCK), BLOCK](alpha, x, y, out, n)


def matrix_scale(alpha, src, out, rows, cols):
    matrix_scale_kernel[grid_2d(cols, rows), (TILE_X, TILE_Y)](alpha, src, out, rows, cols)


def heat_step(src, dst, nx, ny, r):
    # `dst` stands in for the unused block_max: the kernel does not touch it unmeasured.
    heat_step_kernel[grid_2d(nx, ny), (TILE_X, TILE_Y)](src, dst, nx, ny, r, dst.reshape(dst.size), False)


def heat_solve(initial, out, work, change, nx, ny, r, tol, max_iters, check_every):
    grid = grid_2d(nx, ny)
    # One maximum per block comes back at a check: a few KB instead of the whole grid.
    # (There are never more blocks than points, so `change` is large enough.)
    block_max = change.reshape(change.size)
    blocks = grid[0] * grid[1]
    src, dst = initial, out  # step 1 reads the initial grid, then out and work alternate
    steps = 0
    while steps < max_iters:
        steps += 1
        check = steps % check_every == 0
        heat_step_kernel[grid, (TILE_X, TILE_Y)](src, dst, nx, ny, r, block_max, check)
        src, dst = dst, (work if dst is out else out)
        # copy_to_host waits for the kernel: the only synchronization the loop needs.
        if check and block_max[:blocks].copy_to_host().max() < tol:
            break
    if src is not out:
        out.copy_to_device(src)
    return steps
