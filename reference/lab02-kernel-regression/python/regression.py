"""Lab 02 Python reference: NumPy blocks of queries (the m x n weights never whole),
the blocks spread over worker processes with multiprocessing, a Numba CUDA kernel with
one thread per query. The baseline a Python submission is measured against."""

import math
import multiprocessing

import numpy as np

BLOCK_BYTES = 16 << 20  # weights of one block of queries: bounded, whatever m and n


def _predict_block(train_x, train_y, queries, h):
    # |z - x|^2 = |z|^2 - 2 z.x + |x|^2, in double: float32 loses the small distances.
    x = train_x.astype(np.float64)
    z = queries.astype(np.float64)
    sq = (z * z).sum(1)[:, None] - 2.0 * z @ x.T + (x * x).sum(1)[None, :]
    s = -np.maximum(sq, 0.0) / (2.0 * h * h)
    w = np.exp(s - s.max(axis=1, keepdims=True))
    return (w @ train_y.astype(np.float64)) / w.sum(axis=1)


def _rows_per_block(n):
    return max(1, BLOCK_BYTES // (8 * max(1, n)))


def predict_serial(p, h):
    out = np.empty(p.m, dtype=np.float32)
    step = _rows_per_block(p.n)
    for start in range(0, p.m, step):
        out[start:start + step] = _predict_block(p.train_x, p.train_y, p.query_x[start:start + step], h)
    return out


# Worker processes get the training set once, at start (fork shares it without a copy).
_shared = {}


def _init_worker(train_x, train_y):
    _shared["x"], _shared["y"] = train_x, train_y


def _predict_range(args):
    queries, h = args
    out = np.empty(len(queries), dtype=np.float32)
    step = _rows_per_block(len(_shared["x"]))
    for start in range(0, len(queries), step):
        out[start:start + step] = _predict_block(_shared["x"], _shared["y"], queries[start:start + step], h)
    return out


def _chunks(m, workers):
    workers = max(1, min(workers, m))
    return [(m * w // workers, m * (w + 1) // workers) for w in range(workers)]


def predict_parallel(p, h, workers):
    chunks = _chunks(p.m, workers)
    with multiprocessing.Pool(len(chunks), _init_worker, (p.train_x, p.train_y)) as pool:
        parts = pool.map(_predict_range, [(p.query_x[a:b], h) for a, b in chunks])
    return np.concatenate(parts) if parts else np.empty(0, dtype=np.float32)


def _r2(args):
    queries, query_y, h = args
    y_hat = _predict_range((queries, h)).astype(np.float64)
    y = query_y.astype(np.float64)
    return 1.0 - ((y - y_hat) ** 2).sum() / ((y - y.mean()) ** 2).sum()


def grid_search(p, query_y, bandwidths, workers):
    with multiprocessing.Pool(max(1, min(workers, len(bandwidths))), _init_worker,
                              (p.train_x, p.train_y)) as pool:
        return pool.map(_r2, [(p.query_x, query_y, h) for h in bandwidths])


cuda = None  # numba.cuda, imported by the first predict_gpu: the CPU tasks start faster


def _kernel():
    global cuda
    from numba import cuda as numba_cuda
    cuda = numba_cuda  # a module global: the simulator swaps the kernel's globals

    @cuda.jit
    def predict_kernel(train_x, train_y, query_x, first, count, h, out):
        i = cuda.grid(1)
        if i >= count:  # the last block reaches past the queries
            return
        q = first + i
        inv = -1.0 / (2.0 * h * h)
        top = -1e300
        for j in range(train_x.shape[0]):
            s = 0.0
            for k in range(train_x.shape[1]):
                diff = query_x[q, k] - train_x[j, k]
                s += diff * diff
            top = max(top, s * inv)
        num = 0.0
        den = 0.0
        for j in range(train_x.shape[0]):
            s = 0.0
            for k in range(train_x.shape[1]):
                diff = query_x[q, k] - train_x[j, k]
                s += diff * diff
            w = math.exp(s * inv - top)
            num += w * train_y[j]
            den += w
        out[q] = num / den

    return predict_kernel


def predict_gpu(p, h, budget_bytes):
    kernel = _kernel()
    inputs = p.train_x.nbytes + p.train_y.nbytes + p.query_x.nbytes + 4 * p.m
    if inputs > budget_bytes:
        raise MemoryError(f"the inputs ({inputs} bytes) exceed the device budget ({budget_bytes})")
    train_x, train_y = cuda.to_device(p.train_x), cuda.to_device(p.train_y)
    query_x = cuda.to_device(p.query_x)
    out = cuda.device_array(p.m, dtype=np.float32)
    threads = 128
    blocks = (p.m + threads - 1) // threads
    if p.m:
        kernel[blocks, threads](train_x, train_y, query_x, 0, p.m, h, out)
    return out.copy_to_host()
