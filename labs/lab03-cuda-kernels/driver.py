"""Lab 03 driver, Python track (grader-owned), the counterpart of driver.cpp: reads a
"kernel_inputs" dataset with NumPy, owns every device allocation and host<->device
copy, poisons the outputs with NaN before every call, times the student's kernels.py
(the call and cuda.synchronize()) and writes the same outputs:

  vector_add, vector_add_roundtrip   c        f32[n]
  saxpy                              out      f32[n]
  matrix_scale                       out      f32[rows * cols]
  heat_step                          grid     f32[ny * nx]
  heat_solve                         grid     f32[ny * nx], iterations i64[1]

vector_add_roundtrip times the uploads, vector_add and the download as one sample. The
kernels run in Numba's CUDA simulator where no GPU device node exists."""

import operator
import sys

from parlab_harness import Task, run_driver
from parlab_harness.fresh_inputs import SampledFreshInputs
from parlab_harness.inputs import DatasetError, read_array, read_shape
from parlab_harness.numba_cuda import explain_out_of_bounds, use_simulator_without_gpu
from parlab_harness.solution_import import import_solution

GUARD_1D = "the grid has more threads than elements (blocks are rounded up), so guard with `if i < n:`"
GUARD_2D = ("the grid is rounded up in both directions, so guard with "
            "`if row < rows and col < cols:` (x runs along a row: `col, row = cuda.grid(2)`)")
GUARD_HEAT = ("the grid is rounded up in both directions, so guard with `if x < nx and y < ny:`, "
              "and read the 4 neighbours of interior points only")


def numba():
    use_simulator_without_gpu()
    import numpy as np
    from numba import cuda
    return np, cuda


def student():
    # Imported on first use: a broken module fails the task with its message.
    return import_solution("kernels")


def scalar(ctx, name):
    return read_array(ctx.dataset_dir, name)[0]


def poisoned(np, cuda, shape):
    """A device array of NaN bytes (0xFF), as the C++ driver's DeviceBuffer::poison."""
    nan = np.frombuffer(b"\xff" * (4 * int(np.prod(shape))), dtype=np.float32).reshape(shape)
    device = cuda.to_device(nan)
    return device, lambda: device.copy_to_device(nan)


def call_kernels(cuda, function, advice, *args):
    try:
        result = function(*args)
        cuda.synchronize()
        return result
    except IndexError as e:
        raise explain_out_of_bounds(e, advice) from None


def timed_call(ctx, cuda, function, advice, args, prepare, fresh=None):
    return ctx.timed(lambda: call_kernels(cuda, function, advice, *args), prepare, fresh,
                     getattr(function, "__name__", "the call"))


def sampled(np, device_inputs, output, name, expected):
    """Fresh inputs for a call on device arrays (fresh_inputs.py): each (device, host)
    pair gets new values every timed repetition; `output` is the device array checked."""
    return SampledFreshInputs(np, device_inputs, output.copy_to_host, name, expected)


def vector(ctx, names):
    (n,) = read_shape(ctx.dataset_dir, ["n"], "kernel_inputs")
    arrays = [read_array(ctx.dataset_dir, name) for name in names]
    if any(a.size != n for a in arrays):
        raise DatasetError(f"dataset: {', '.join(names)} must hold n = {n} values each")
    return n, arrays


def write_floats(ctx, name, device):
    ctx.out.write(name, "f32", device.copy_to_host().reshape(-1).tolist())


def run_vector_add(ctx):
    np, cuda = numba()
    n, (a, b) = vector(ctx, ["a", "b"])
    da, db = cuda.to_device(a), cuda.to_device(b)
    dc, poison = poisoned(np, cuda, (n,))
    fresh = sampled(np, [(da, a), (db, b)], dc, "c", lambda i, v: float(v[0][i]) + float(v[1][i]))
    timed_call(ctx, cuda, student().vector_add, GUARD_1D, (da, db, dc, n), poison, fresh)
    write_floats(ctx, "c", dc)


def run_vector_add_roundtrip(ctx):
    np, cuda = numba()
    n, (a, b) = vector(ctx, ["a", "b"])
    dc, poison = poisoned(np, cuda, (n,))
    host_a, host_b = a.copy(), b.copy()  # what each trip uploads: new content when timed
    last = {}

    def round_trip():
        da, db = cuda.to_device(host_a), cuda.to_device(host_b)
        call_kernels(cuda, student().vector_add, GUARD_1D, da, db, dc, n)
        last["c"] = dc.copy_to_host()
        return last["c"]

    fresh = SampledFreshInputs(np, [(host_a, a), (host_b, b)], lambda: last["c"], "c",
                               lambda i, v: float(v[0][i]) + float(v[1][i]))
    c = ctx.timed(round_trip, poison, fresh, "vector_add")
    ctx.out.write("c", "f32", c.tolist())


def run_saxpy(ctx):
    np, cuda = numba()
    n, (x, y) = vector(ctx, ["x", "y"])
    alpha = np.float32(scalar(ctx, "alpha"))
    dx, dy = cuda.to_device(x), cuda.to_device(y)
    dout, poison = poisoned(np, cuda, (n,))
    fresh = sampled(np, [(dx, x), (dy, y)], dout, "out",
                    lambda i, v: float(alpha) * float(v[0][i]) + float(v[1][i]))
    timed_call(ctx, cuda, student().saxpy, GUARD_1D, (alpha, dx, dy, dout, n), poison, fresh)
    write_floats(ctx, "out", dout)


def run_matrix_scale(ctx):
    np, cuda = numba()
    rows, cols = read_shape(ctx.dataset_dir, ["rows", "cols"], "kernel_inputs")
    matrix = read_array(ctx.dataset_dir, "matrix")
    if matrix.size != rows * cols:
        raise DatasetError(f"dataset: 'matrix' must hold rows * cols = {rows * cols} values")
    alpha = np.float32(scalar(ctx, "alpha"))
    src = cuda.to_device(matrix.reshape(rows, cols))
    dout, poison = poisoned(np, cuda, (rows, cols))
    fresh = sampled(np, [(src, matrix.reshape(rows, cols))], dout, "out", lambda i, v: float(alpha) * float(v[0][i]))
    timed_call(ctx, cuda, student().matrix_scale, GUARD_2D, (alpha, src, dout, rows, cols), poison, fresh)
    write_floats(ctx, "out", dout)


def heat_input(ctx, np):
    ny, nx = read_shape(ctx.dataset_dir, ["ny", "nx"], "kernel_inputs")
    grid = read_array(ctx.dataset_dir, "grid")
    if grid.size != nx * ny:
        raise DatasetError(f"dataset: 'grid' must hold ny * nx = {nx * ny} values")
    r = np.float32(scalar(ctx, "r"))
    if not 0 < r <= 0.25:
        raise DatasetError("dataset: 'r' must be in (0, 0.25]")
    return nx, ny, grid.reshape(ny, nx), r


def run_heat_step(ctx):
    np, cuda = numba()
    nx, ny, grid, r = heat_input(ctx, np)
    src = cuda.to_device(grid)
    dst, poison = poisoned(np, cuda, (ny, nx))

    def heat_step_point(i, v):  # one point of one Jacobi step, in double; a boundary keeps its value
        g, x, y = v[0], i % nx, i // nx
        if x == 0 or y == 0 or x + 1 == nx or y + 1 == ny:
            return float(g[i])
        return float(g[i]) + float(r) * (float(g[i - 1]) + float(g[i + 1]) + float(g[i - nx]) + float(g[i + nx]) - 4 * float(g[i]))

    fresh = sampled(np, [(src, grid)], dst, "grid", heat_step_point)
    timed_call(ctx, cuda, student().heat_step, GUARD_HEAT, (src, dst, nx, ny, r), poison, fresh)
    write_floats(ctx, "grid", dst)


def step_count(steps):
    try:
        return operator.index(steps)
    except TypeError:
        raise TypeError(f"heat_solve must return the number of steps (an int), got {steps!r}") from None


def run_heat_solve(ctx):
    np, cuda = numba()
    nx, ny, grid, r = heat_input(ctx, np)
    tol = np.float32(scalar(ctx, "tol"))
    max_iters, check_every = int(scalar(ctx, "max_iters")), int(scalar(ctx, "check_every"))
    if not (tol >= 0 and max_iters >= 1 and 1 <= check_every < 2**31):
        raise DatasetError("dataset: tol, max_iters or check_every out of range")
    initial = cuda.to_device(grid)
    buffers = [poisoned(np, cuda, (ny, nx)) for _ in range(3)]
    (out, _), (work, _), (change, _) = buffers
    steps = timed_call(ctx, cuda, student().heat_solve, GUARD_HEAT,
                       (initial, out, work, change, nx, ny, r, tol, max_iters, check_every),
                       lambda: [poison() for _, poison in buffers])
    ctx.out.write("iterations", "i64", [step_count(steps)])
    write_floats(ctx, "grid", out)


TASKS = [
    Task("vector_add", "c = a + b (your vector_add)", run_vector_add),
    Task("vector_add_roundtrip", "upload + vector_add + download, timed as one sample",
         run_vector_add_roundtrip),
    Task("saxpy", "out = alpha * x + y (your saxpy)", run_saxpy),
    Task("matrix_scale", "out = alpha * matrix on a 2D grid (your matrix_scale)", run_matrix_scale),
    Task("heat_step", "one Jacobi step of the heat grid (your heat_step)", run_heat_step),
    Task("heat_solve", "Jacobi steps until the change < tol (your heat_solve)", run_heat_solve),
]

if __name__ == "__main__":
    sys.exit(run_driver(TASKS))
