#pragma once
// Lab 02: embarrassingly parallel inference. The functions you write, with signatures
// the grader's driver calls (do not change them). The handout (README.md) explains the
// task; in short, Nadaraya-Watson kernel regression with a Gaussian kernel:
//
//   for query z_i (i < m), training points x_j with targets y_j (j < n), bandwidth h:
//     s_ij    = -||z_i - x_j||^2 / (2 h^2)
//     M_i     = max_j s_ij
//     y_hat_i = sum_j exp(s_ij - M_i) y_j / sum_j exp(s_ij - M_i)
//
// This "log-sum-exp" form equals sum_j exp(s_ij) y_j / sum_j exp(s_ij), but the largest
// weight is exactly 1, so a tiny bandwidth (where every exp(s_ij) underflows to 0 and
// the plain formula gives 0/0 = NaN) still gives the y of the nearest training point.
// Every query is an independent work item; so is every bandwidth of a grid search.
//
// Points are rows of row-major float arrays: x_j is train_x[j*d .. j*d + d-1].
#include <cstddef>
#include <cstdint>

namespace lab02 {

struct Problem {
  const float* train_x;  // n*d
  const float* train_y;  // n
  std::int64_t n;
  const float* query_x;  // m*d
  std::int64_t m;
  int d;
};

// ---- Part 1, CPU (regression_cpu.cpp) --------------------------------------------
// y_hat of every query with bandwidth h into out[0..m), on one thread.
void predict_serial(const Problem& p, float h, float* out);

// The same with `workers` std::thread workers (workers >= 1): split the queries.
// The memory wall test gives this function less memory than an m x n matrix of
// weights needs: work on blocks of queries instead of the whole matrix.
void predict_parallel(const Problem& p, float h, float* out, int workers);

// R^2 of the predictions of the query set (truth query_y[0..m)) for each of the k
// bandwidths, into r2[0..k):  R^2 = 1 - sum_i (y_i - y_hat_i)^2 / sum_i (y_i - mean y)^2.
// Parallel, with `workers` threads: every (bandwidth, query) pair is independent.
void grid_search(const Problem& p, const float* query_y, const float* bandwidths, int k,
                 double* r2, int workers);

// ---- Part 2, GPU (regression_gpu.cu) ---------------------------------------------
// predict_serial on the GPU. Every pointer in p, and out (m floats), is DEVICE memory.
// You may cudaMalloc scratch space of at most budget_bytes in total (the driver
// enforces it: a cudaMalloc beyond it fails with cudaErrorMemoryAllocation). The
// memory wall test sets a budget smaller than an m x n matrix of floats: process the
// queries in chunks that fit. Leave the results in out when you return.
void predict_gpu(const Problem& p, float h, float* out, std::size_t budget_bytes);

}  // namespace lab02
