// A lab02 submission whose predict_parallel splits the queries into m / workers per
// worker and drops the remainder (tests/e2e/lab02_sim.sh): with more workers than
// queries nothing is written; otherwise the last m % workers queries stay NaN.
#include <cmath>
#include <cstdint>
#include <thread>
#include <vector>

#include "api.hpp"

namespace {

// Row i of the weight matrix: exp(s_ij - max_j s_ij).
void weights_row(const lab02::Problem& p, double h, std::int64_t i, float* row) {
  double best = -INFINITY;
  for (std::int64_t j = 0; j < p.n; ++j) {
    double dist = 0;
    for (int k = 0; k < p.d; ++k) {
      const double diff = double{p.query_x[i * p.d + k]} - p.train_x[j * p.d + k];
      dist += diff * diff;
    }
    row[j] = static_cast<float>(-dist / (2 * h * h));
    best = std::max(best, double{row[j]});
  }
  for (std::int64_t j = 0; j < p.n; ++j) row[j] = static_cast<float>(std::exp(row[j] - best));
}

float predict_row(const lab02::Problem& p, const float* row) {
  double num = 0, den = 0;
  for (std::int64_t j = 0; j < p.n; ++j) {
    num += double{row[j]} * p.train_y[j];
    den += row[j];
  }
  return static_cast<float>(num / den);
}

}  // namespace

namespace lab02 {

void predict_serial(const Problem& p, float h, float* out) {
  std::vector<float> row(static_cast<std::size_t>(p.n));
  for (std::int64_t i = 0; i < p.m; ++i) {
    weights_row(p, h, i, row.data());
    out[i] = predict_row(p, row.data());
  }
}

void predict_parallel(const Problem& p, float h, float* out, int workers) {
  const std::int64_t chunk = p.m / workers;  // the bug: the remainder is never handed out
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w) {
    threads.emplace_back([&, w] {
      std::vector<float> row(static_cast<std::size_t>(p.n));
      for (std::int64_t i = w * chunk; i < (w + 1) * chunk; ++i) {
        weights_row(p, h, i, row.data());
        out[i] = predict_row(p, row.data());
      }
    });
  }
  for (auto& t : threads) t.join();
}

void grid_search(const Problem& p, const float* query_y, const float* bandwidths, int k,
                 double* r2, int) {
  std::vector<float> y_hat(static_cast<std::size_t>(p.m));
  double mean = 0;
  for (std::int64_t i = 0; i < p.m; ++i) mean += query_y[i];
  mean /= static_cast<double>(p.m);
  for (int b = 0; b < k; ++b) {
    predict_serial(p, bandwidths[b], y_hat.data());
    double res = 0, tot = 0;
    for (std::int64_t i = 0; i < p.m; ++i) {
      res += (query_y[i] - double{y_hat[i]}) * (query_y[i] - double{y_hat[i]});
      tot += (query_y[i] - mean) * (query_y[i] - mean);
    }
    r2[b] = tot == 0 ? (res == 0 ? 1.0 : 0.0) : 1 - res / tot;
  }
}

}  // namespace lab02
