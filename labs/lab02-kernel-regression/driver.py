"""Lab 02 driver, Python track (grader-owned), the counterpart of driver.cpp: loads a
"regression_data" dataset with NumPy, calls the student's regression.py, checks the
shape of what came back and writes the same outputs (y_hat f32 m, r2 f64 k).

Tasks and params as in driver.cpp: predict_serial [h], predict_parallel [h, workers,
memory_mb], grid_search [h_min, h_max, k, workers], predict_gpu [h, budget_mb].
predict_gpu runs in Numba's CUDA simulator where no GPU device node exists (set before
Numba is imported: the simulator is chosen at import)."""

import math
import os
import sys

from parlab_harness import ParamError, Task, run_driver
from parlab_harness.inputs import read_array, read_shape
from parlab_harness.numba_cuda import explain_out_of_bounds, use_simulator_without_gpu
from parlab_harness.solution_import import import_solution

import api


def load(ctx):
    import numpy as np
    n, m, d = read_shape(ctx.dataset_dir, ["n", "m", "d"], "regression_data")
    train_x = read_array(ctx.dataset_dir, "train_x").reshape(n, d)
    train_y = read_array(ctx.dataset_dir, "train_y")
    query_x = read_array(ctx.dataset_dir, "query_x").reshape(m, d)
    query_y = read_array(ctx.dataset_dir, "query_y")
    if train_y.size != n or query_y.size != m:
        raise ValueError("dataset: train_y must hold n values and query_y m values")
    return api.Problem(np.ascontiguousarray(train_x), train_y, np.ascontiguousarray(query_x)), query_y


def bandwidth(ctx, key, fallback):
    h = ctx.params.get_float(key, fallback)
    if not (h > 0 and math.isfinite(h)):
        raise ParamError(f"parameter '{key}': a bandwidth must be a positive number, got {h}")
    return h


def workers(ctx):
    w = ctx.params.get_int("workers", max(1, os.cpu_count() or 1))
    if not 1 <= w <= 1024:
        raise ParamError(f"parameter 'workers': must be in [1, 1024], got {w}")
    return w


def predictions(result, m, function):
    import numpy as np
    try:
        y_hat = np.asarray(result, dtype=np.float32).reshape(-1)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{function} must return m = {m} numbers (a NumPy array): {e}") from None
    if y_hat.size != m:
        raise ValueError(f"{function} returned {y_hat.size} predictions for m = {m} queries; "
                         "split the queries so every one is computed exactly once, in order")
    return y_hat


def student():
    # Imported on first use: a broken module fails the task with its message.
    return import_solution("regression")


def run_predict(ctx, function, call):
    problem, _ = load(ctx)
    result = ctx.timed(lambda: call(problem))
    ctx.out.write("y_hat", "f32", predictions(result, problem.m, function).tolist())


def bandwidth_grid(h_min, h_max, k):
    import numpy as np
    return [float(np.float32(math.exp(math.log(h_min) + (i / (k - 1) if k > 1 else 0.0) *
                                      (math.log(h_max) - math.log(h_min))))) for i in range(k)]


def run_grid_search(ctx):
    problem, query_y = load(ctx)
    h_min, h_max = bandwidth(ctx, "h_min", 0.01), bandwidth(ctx, "h_max", 10.0)
    k = ctx.params.get_int("k", 9)
    if not 1 <= k <= 1000:
        raise ParamError(f"parameter 'k': must be in [1, 1000], got {k}")
    grid, w = bandwidth_grid(h_min, h_max, k), workers(ctx)
    r2 = ctx.timed(lambda: student().grid_search(problem, query_y, list(grid), w))
    r2 = [float(v) for v in r2]
    if len(r2) != k:
        raise ValueError(f"grid_search returned {len(r2)} values for {k} bandwidths")
    ctx.out.write("r2", "f64", r2)


def run_predict_gpu(ctx):
    use_simulator_without_gpu()
    h = bandwidth(ctx, "h", 0.3)
    budget = max(0, ctx.params.get_int("budget_mb", 0)) << 20
    budget = budget or (1 << 62)
    def call(p):
        try:
            return student().predict_gpu(p, h, budget)
        except IndexError as e:
            # The simulator checks every index: a thread past the data is a kernel bug.
            raise explain_out_of_bounds(e, "the grid has more threads than queries (blocks are "
                                        "rounded up), so guard with `if i < m:` before "
                                        "touching arrays")

    run_predict(ctx, "predict_gpu", call)


TASKS = [
    Task("predict_serial", "predict_serial (param h)",
         lambda ctx: run_predict(ctx, "predict_serial",
                                 lambda p: student().predict_serial(p, bandwidth(ctx, "h", 0.3)))),
    Task("predict_parallel", "predict_parallel (params h, workers)",
         lambda ctx: run_predict(ctx, "predict_parallel",
                                 lambda p: student().predict_parallel(p, bandwidth(ctx, "h", 0.3),
                                                                      workers(ctx)))),
    Task("grid_search", "grid_search (params h_min, h_max, k, workers)", run_grid_search),
    Task("predict_gpu", "predict_gpu with a Numba kernel (params h, budget_mb)", run_predict_gpu),
]

if __name__ == "__main__":
    sys.exit(run_driver(TASKS))
