// Lab 02 reference, Part 1: Nadaraya-Watson kernel regression on the CPU, written the
// way the handout asks (this is the performance baseline of Part 1, so a student who
// writes the same algorithm gets a ratio near 1.0).
//   - Every query is one online log-sum-exp over the train set, in double: the sums are
//     kept relative to the nearest point seen so far and rescaled when a nearer one
//     turns up, so the nearest weight is exactly 1 and a tiny h gives the nearest y.
//   - Work items are blocks of queries, handed out by an atomic counter. An item walks
//     the train set in tiles and runs all its queries over a tile while it is in cache.
//     Extra memory is a fixed amount per worker: never an m x n matrix of weights.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <system_error>
#include <thread>
#include <vector>

#include "api.hpp"

namespace lab02 {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kTrainTile = 256;     // train points per tile: their distances fit in L1
constexpr int kMaxQueryBlock = 16;  // queries per work item, at most
constexpr std::int64_t kItemsPerWorker = 4;  // at least, when m allows: evens out load

// 1 / (2 h^2) in double: finite for every positive float h.
double inverse_two_h2(float h) {
  const double hd = h;
  return 0.5 / (hd * hd);
}

// exp(-excess / (2 h^2)). exp(-t) is 0 in double for t > 745.2; skipping exp there is
// the same number, and glibc's exp takes a slow path for results that underflow, which
// a small h hits for nearly every pair. excess = inf (no point seen yet) gives 0.
inline double weight(double excess, double inv_2h2) {
  const double t = excess * inv_2h2;
  return t > 745.0 ? 0.0 : std::exp(-t);
}

double squared_distance(const float* a, const float* b, int d) {
  double sum = 0;
  for (int k = 0; k < d; ++k) {
    const double t = static_cast<double>(a[k]) - static_cast<double>(b[k]);
    sum += t * t;
  }
  return sum;
}

// One query's running log-sum-exp: num and den are relative to exp(-nearest / 2h^2).
struct Sums {
  double nearest = kInf;
  double num = 0;
  double den = 0;
};

// Adds train points [j0, j0 + count) to one query's sums. The tile's distances are
// computed once; the sums are re-based at most once per tile, on the tile's minimum.
void add_tile(const Problem& p, const float* z, std::int64_t j0, int count, double inv_2h2,
              Sums& s) {
  double d2[kTrainTile];
  double tile_min = kInf;
  for (int j = 0; j < count; ++j) {
    d2[j] = squared_distance(z, p.train_x + (j0 + j) * p.d, p.d);
    tile_min = std::min(tile_min, d2[j]);
  }
  if (tile_min < s.nearest) {
    const double f = weight(s.nearest - tile_min, inv_2h2);
    s.num *= f;
    s.den *= f;
    s.nearest = tile_min;
  }
  const float* y = p.train_y + j0;
  for (int j = 0; j < count; ++j) {
    const double w = weight(d2[j] - s.nearest, inv_2h2);
    s.num += w * static_cast<double>(y[j]);
    s.den += w;
  }
}

// Predictions of queries [q0, q0 + count) (count <= kMaxQueryBlock) into pred. Tiles
// outside, queries inside: a tile comes from memory once per block, then from cache.
void predict_block(const Problem& p, double inv_2h2, std::int64_t q0, int count, double* pred) {
  Sums sums[kMaxQueryBlock];
  for (std::int64_t j0 = 0; j0 < p.n; j0 += kTrainTile) {
    const int tile = static_cast<int>(std::min<std::int64_t>(kTrainTile, p.n - j0));
    for (int q = 0; q < count; ++q) {
      add_tile(p, p.query_x + (q0 + q) * p.d, j0, tile, inv_2h2, sums[q]);
    }
  }
  // den >= 1: the nearest point's weight is exactly 1.
  for (int q = 0; q < count; ++q) pred[q] = sums[q].num / sums[q].den;
}

// Queries per work item: small enough that `items` work items (per query block) give
// every worker several, large enough to reuse each tile across queries.
int query_block(std::int64_t m, std::int64_t items_per_block, int workers) {
  const std::int64_t wanted = kItemsPerWorker * std::max(workers, 1);
  return static_cast<int>(std::clamp<std::int64_t>(m * items_per_block / wanted, 1, kMaxQueryBlock));
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Writes the predictions of block b (of `block` queries) as floats.
void predict_into(const Problem& p, double inv_2h2, std::int64_t b, int block, float* out) {
  const std::int64_t q0 = b * block;
  const int count = static_cast<int>(std::min<std::int64_t>(block, p.m - q0));
  double pred[kMaxQueryBlock];
  predict_block(p, inv_2h2, q0, count, pred);
  for (int q = 0; q < count; ++q) out[q0 + q] = static_cast<float>(pred[q]);
}

// Runs fn(item) for every item in [0, items) on up to `workers` threads (this one
// included), each taking the next item from a shared counter until none is left, so a
// thread slowed down by other processes simply takes fewer items.
template <class Fn>
void run_workers(int workers, std::int64_t items, const Fn& fn) {
  std::atomic<std::int64_t> next{0};
  const auto work = [&] {
    for (std::int64_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < items;) fn(i);
  };
  const auto threads = std::min<std::int64_t>(std::max(workers, 1), items);
  std::vector<std::jthread> pool;  // jthreads join when the vector goes away
  pool.reserve(static_cast<std::size_t>(std::max<std::int64_t>(threads - 1, 0)));
  try {
    for (std::int64_t t = 1; t < threads; ++t) pool.emplace_back(work);
  } catch (const std::system_error&) {
    // No more threads to be had (e.g. a tight memory limit): the ones running take
    // all the items; the result is the same.
  }
  work();
}

}  // namespace

void predict_serial(const Problem& p, float h, float* out) {
  const double inv_2h2 = inverse_two_h2(h);
  const std::int64_t blocks = ceil_div(p.m, kMaxQueryBlock);
  for (std::int64_t b = 0; b < blocks; ++b) predict_into(p, inv_2h2, b, kMaxQueryBlock, out);
}

void predict_parallel(const Problem& p, float h, float* out, int workers) {
  const double inv_2h2 = inverse_two_h2(h);
  const int block = query_block(p.m, 1, workers);
  run_workers(workers, ceil_div(p.m, block),
              [&](std::int64_t b) { predict_into(p, inv_2h2, b, block, out); });
}

void grid_search(const Problem& p, const float* query_y, const float* bandwidths, int k,
                 double* r2, int workers) {
  if (k < 1) return;
  // Work item = (bandwidth, query block); it leaves its block's residual sum in
  // ss_res, and the sums are added per bandwidth afterwards in a fixed order (the same
  // result for any number of workers).
  const int block = query_block(p.m, k, workers);
  const std::int64_t blocks = ceil_div(p.m, block);
  std::vector<double> ss_res(static_cast<std::size_t>(blocks * k));
  run_workers(workers, blocks * k, [&](std::int64_t item) {
    const std::int64_t b = item % blocks;
    const std::int64_t q0 = b * block;
    const int count = static_cast<int>(std::min<std::int64_t>(block, p.m - q0));
    double pred[kMaxQueryBlock];
    predict_block(p, inverse_two_h2(bandwidths[item / blocks]), q0, count, pred);
    double sum = 0;
    for (int q = 0; q < count; ++q) {
      const double e = static_cast<double>(query_y[q0 + q]) - pred[q];
      sum += e * e;
    }
    ss_res[static_cast<std::size_t>(item)] = sum;
  });

  double mean = 0;
  for (std::int64_t i = 0; i < p.m; ++i) mean += query_y[i];
  mean /= static_cast<double>(p.m);
  double ss_tot = 0;
  for (std::int64_t i = 0; i < p.m; ++i) ss_tot += (query_y[i] - mean) * (query_y[i] - mean);

  for (int c = 0; c < k; ++c) {
    double ss = 0;
    for (std::int64_t b = 0; b < blocks; ++b) ss += ss_res[static_cast<std::size_t>(c * blocks + b)];
    // A constant truth has no variance: scikit-learn's rule (perfect = 1, else 0).
    r2[c] = ss_tot == 0 ? (ss == 0 ? 1.0 : 0.0) : 1.0 - ss / ss_tot;
  }
}

}  // namespace lab02
