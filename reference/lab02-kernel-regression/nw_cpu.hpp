#pragma once
// Lab 02's CPU reference: Nadaraya-Watson kernel regression with a Gaussian kernel.
// Inputs are the float arrays of the "regression_data" generator; all arithmetic is in
// double.
//
// Definition (the handout's). For query z_i, training points x_j with targets y_j
// (j = 0..n-1) and a bandwidth h > 0:
//   s_ij    = -||z_i - x_j||^2 / (2 h^2)
//   M_i     = max_j s_ij
//   w_ij    = exp(s_ij - M_i)
//   y_hat_i = sum_j w_ij y_j / sum_j w_ij
// This is the log-sum-exp form of sum_j exp(s_ij) y_j / sum_j exp(s_ij): the factor
// exp(-M_i) cancels, so the value is the same, but the largest weight is exactly 1 and
// the denominator is >= 1. With a tiny bandwidth every plain exp(s_ij) underflows to 0
// and the plain formula gives 0/0 = NaN; this form gives the mean of y over the nearest
// training points instead (the y of the nearest one when it is unique). As h -> infinity
// every weight tends to 1 and y_hat_i -> mean(y).
// The functions compute s_ij - M_i as -(d_ij - d_i) / (2 h^2), where d_ij is the squared
// distance and d_i = min_j d_ij: the same number, with no overflow or 0/0 for any h.
//
// R^2 of predictions y_hat of truths y (i = 0..m-1):
//   R^2 = 1 - sum (y_i - y_hat_i)^2 / sum (y_i - mean(y))^2
// When every y_i is the same the denominator is 0; then R^2 = 1 if the residual sum is
// 0 too (a perfect prediction), else 0 (scikit-learn's r2_score rule).
//
// Bandwidths must be positive, finite and normal doubles (h >= 2.2e-308, so 1/h is
// finite). Invalid arguments throw std::invalid_argument naming the argument.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace lab02::reference {

struct Problem {
  const float* train_x;  // n*d, row-major
  const float* train_y;  // n
  std::int64_t n;
  const float* query_x;  // m*d, row-major
  std::int64_t m;
  int d;
};

// The definition as written: per pair, the direct difference z - x; two passes per
// query (the nearest distance, then the weighted sums). Serial; the clearest version.
void predict_naive(const Problem& p, double h, double* out);

// Squared distances as ||x||^2 + ||z||^2 - 2 x.z (train norms computed once; negative
// results of cancellation clamped to 0), train points in blocks that stay in cache,
// one pass per query with an online log-sum-exp (running minimum distance; the sums
// are rescaled when it drops). Serial. Agrees with predict_naive up to the rounding of
// the distance expansion (about 1e-15 * ||x||^2), amplified by 1/(2h^2) in the
// exponent: ~1e-12 relative for h >= 0.1.
void predict_vectorized(const Problem& p, double h, double* out);

// predict_vectorized's kernel over blocks of queries, handed out dynamically (a shared
// atomic counter) to `threads` std::thread workers (threads >= 1). Every query is
// computed with the same operations in the same order whatever the thread count, so the
// result equals predict_vectorized's bit for bit.
void predict_parallel(const Problem& p, double h, double* out, int threads);

// 1 - SS_res / SS_tot (see above). NaN predictions give NaN.
double r_squared(const float* truth, const double* pred, std::int64_t m);

// R^2 on the query set for each bandwidth: result[k] = r_squared(query_y,
// predictions with bandwidths[k]), predictions equal to predict_parallel's.
// Parallel over queries, all bandwidths at once: the distances (the O(d) part of each
// pair) do not depend on h, so each work item computes them once for its block of
// queries and updates every bandwidth's sums. Only when there are too few query blocks
// to keep the threads busy (m small) are the bandwidths also split among work items.
std::vector<double> grid_search(const Problem& p, const float* query_y,
                                const std::vector<double>& bandwidths, int threads);

// The index of the largest R^2; ties go to the smallest index, NaN never wins. Throws
// std::invalid_argument when r2 is empty or all NaN.
std::size_t best_bandwidth(const std::vector<double>& r2);

}  // namespace lab02::reference
