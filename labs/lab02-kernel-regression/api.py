"""Lab 02, Python track: what your regression.py implements; the grader's driver.py
calls it. Do not change this file. The formulas are those of api.hpp (README.md):

  for query z_i (i < m), training points x_j with targets y_j (j < n), bandwidth h:
    s_ij    = -||z_i - x_j||^2 / (2 h^2)
    M_i     = max_j s_ij
    y_hat_i = sum_j exp(s_ij - M_i) y_j / sum_j exp(s_ij - M_i)    (log-sum-exp form)

Arrays are NumPy float32: train_x (n, d), train_y (n,), query_x (m, d), query_y (m,).

The functions (in your regression.py):
  predict_serial(p: Problem, h: float) -> ndarray (m,)
      vectorised NumPy, one process.
  predict_parallel(p: Problem, h: float, workers: int) -> ndarray (m,)
      the queries split over `workers` worker PROCESSES (multiprocessing or joblib);
      threads do not count (the GIL runs one of them at a time).
  grid_search(p: Problem, query_y, bandwidths: list[float], workers: int) -> list[float]
      R^2 = 1 - sum (y - y_hat)^2 / sum (y - mean y)^2 per bandwidth, over processes.
  predict_gpu(p: Problem, h: float, budget_bytes: int) -> ndarray (m,)
      a Numba @cuda.jit kernel, one thread per query (guard: if i < m). Device memory
      you allocate stays within budget_bytes: process the queries in chunks that fit.
      Without a GPU it runs in Numba's CUDA simulator (slow: small data only)."""

from dataclasses import dataclass

import numpy as np


@dataclass
class Problem:
    train_x: np.ndarray  # (n, d) float32
    train_y: np.ndarray  # (n,) float32
    query_x: np.ndarray  # (m, d) float32

    @property
    def n(self):
        return self.train_x.shape[0]

    @property
    def m(self):
        return self.query_x.shape[0]

    @property
    def d(self):
        return self.train_x.shape[1]
