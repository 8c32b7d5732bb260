// Lab 02's CPU reference (nw_cpu.hpp has the definition). predict_naive is the
// definition written out; predict_vectorized, predict_parallel and grid_search share
// one kernel (sweep), so their predictions are the same numbers.
#include "nw_cpu.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

namespace lab02::reference {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// A block of train points, transposed to double, fits in a 256 KiB L2 with room for the
// distances: every query of a tile reads it from cache.
constexpr std::size_t kTrainBlockBytes = 128 * 1024;
// Queries per work item (at most): enough to amortize the transposition of a block.
constexpr std::int64_t kQueryTile = 64;
// Work items per thread (at least, when there is enough work): dynamic scheduling then
// evens out threads that are slowed down by other processes.
constexpr std::int64_t kItemsPerThread = 4;

[[noreturn]] void invalid(const char* fn, const std::string& what) {
  throw std::invalid_argument(std::string(fn) + ": " + what);
}

void check_problem(const char* fn, const Problem& p) {
  if (p.n < 1) invalid(fn, "n must be >= 1, got " + std::to_string(p.n));
  if (p.m < 1) invalid(fn, "m must be >= 1, got " + std::to_string(p.m));
  if (p.d < 1) invalid(fn, "d must be >= 1, got " + std::to_string(p.d));
  if (!p.train_x) invalid(fn, "train_x is null");
  if (!p.train_y) invalid(fn, "train_y is null");
  if (!p.query_x) invalid(fn, "query_x is null");
}

// Normal, so 1/h is finite and kernel_weight never computes 0 * inf.
void check_bandwidth(const char* fn, const std::string& name, double h) {
  if (!(std::isnormal(h) && h > 0)) {
    invalid(fn, name + " must be a positive, finite, normal double (>= 2.2e-308), got " +
                    std::to_string(h));
  }
}

void check_threads(const char* fn, int threads) {
  if (threads < 1) invalid(fn, "threads must be >= 1, got " + std::to_string(threads));
}

// exp(-delta / (2 h^2)) = w_ij for delta = d_ij - d_i (nw_cpu.hpp). delta = 0 gives
// exactly 1; a product that overflows to infinity gives 0, never NaN. exp(-t) is 0 in
// double for t > 745.2 anyway; skipping it there is the same number, and glibc's exp
// takes a slow path (errno) for results that underflow, which small bandwidths hit for
// nearly every pair.
inline double kernel_weight(double delta, double inv_h) {
  const double t = 0.5 * ((delta * inv_h) * inv_h);
  return t > 746.0 ? 0.0 : std::exp(-t);
}

double squared_distance(const float* a, const float* b, int d) {
  double sum = 0;
  for (int k = 0; k < d; ++k) {
    const double t = static_cast<double>(a[k]) - static_cast<double>(b[k]);
    sum += t * t;
  }
  return sum;
}

// ---- the blocked kernel -------------------------------------------------------------

struct Scratch {
  std::vector<double> xt;        // one train block, transposed: xt[k * block + j]
  std::vector<double> d2;        // squared distances of one query to the block
  std::vector<double> nearest;   // per query of the item: smallest d2 so far
  std::vector<double> num, den;  // per (query, bandwidth) of the item: the running sums
};

// What the work items of one sweep share.
struct Sweep {
  const Problem& p;
  std::vector<double> norms;  // ||x_j||^2, computed once
  std::vector<double> inv_h;  // 1/h per bandwidth
  std::int64_t block = 0;     // train points per block
  std::int64_t query_tile = 0;
  std::int64_t bw_group = 0;  // bandwidths per work item
  double* out = nullptr;      // out[k * m + i]
};

std::vector<double> train_norms(const Problem& p) {
  std::vector<double> norms(static_cast<std::size_t>(p.n));
  for (std::int64_t j = 0; j < p.n; ++j) {
    double sum = 0;
    for (int k = 0; k < p.d; ++k) {
      const double v = p.train_x[j * p.d + k];
      sum += v * v;
    }
    norms[static_cast<std::size_t>(j)] = sum;
  }
  return norms;
}

// Coordinate-major, so the distance loop below runs over contiguous train points.
void transpose_block(const Sweep& s, std::int64_t b0, std::int64_t count, Scratch& sc) {
  const int d = s.p.d;
  for (std::int64_t j = 0; j < count; ++j) {
    for (int k = 0; k < d; ++k) sc.xt[k * s.block + j] = s.p.train_x[(b0 + j) * d + k];
  }
}

// sc.d2[j] = ||x_j||^2 + ||z||^2 - 2 x_j.z for the block's points.
void block_distances(const Sweep& s, std::int64_t q, std::int64_t b0, std::int64_t count,
                     Scratch& sc) {
  const float* z = s.p.query_x + q * s.p.d;
  double* d2 = sc.d2.data();
  std::fill(d2, d2 + count, 0.0);
  double z_norm = 0;
  for (int k = 0; k < s.p.d; ++k) {
    const double zk = z[k];
    z_norm += zk * zk;
    const double* row = sc.xt.data() + k * s.block;
    for (std::int64_t j = 0; j < count; ++j) d2[j] += row[j] * zk;  // the dot products
  }
  const double* norms = s.norms.data() + b0;
  for (std::int64_t j = 0; j < count; ++j) {
    // Cancellation can make the expansion slightly negative for near-equal points.
    d2[j] = std::max(0.0, norms[j] + z_norm - 2.0 * d2[j]);
  }
}

// Online log-sum-exp: the sums are kept relative to the nearest distance seen so far,
// and rescaled when a block brings a nearer point. Starting from nearest = inf, the
// first rescale multiplies the empty sums by exp(-inf) = 0.
void accumulate(const Sweep& s, const double* d2, const float* y, std::int64_t count,
                std::int64_t k0, std::int64_t nk, double& nearest, double* num, double* den) {
  const double block_min = *std::min_element(d2, d2 + count);
  if (block_min < nearest) {
    for (std::int64_t k = 0; k < nk; ++k) {
      const double f = kernel_weight(nearest - block_min, s.inv_h[k0 + k]);
      num[k] *= f;
      den[k] *= f;
    }
    nearest = block_min;
  }
  for (std::int64_t k = 0; k < nk; ++k) {
    const double inv_h = s.inv_h[k0 + k];
    double block_num = 0, block_den = 0;
    for (std::int64_t j = 0; j < count; ++j) {
      const double w = kernel_weight(d2[j] - nearest, inv_h);
      block_num += w * static_cast<double>(y[j]);
      block_den += w;
    }
    num[k] += block_num;
    den[k] += block_den;
  }
}

// Queries [q0, q1) with bandwidths [k0, k1): train blocks outside, queries inside, so a
// block is read from memory once per item. The order of the operations for one
// (query, bandwidth) does not depend on the item's bounds.
void run_item(const Sweep& s, std::int64_t q0, std::int64_t q1, std::int64_t k0,
              std::int64_t k1, Scratch& sc) {
  const std::int64_t nq = q1 - q0, nk = k1 - k0;
  sc.xt.resize(static_cast<std::size_t>(s.block * s.p.d));
  sc.d2.resize(static_cast<std::size_t>(s.block));
  sc.nearest.assign(static_cast<std::size_t>(nq), kInf);
  sc.num.assign(static_cast<std::size_t>(nq * nk), 0.0);
  sc.den.assign(static_cast<std::size_t>(nq * nk), 0.0);
  for (std::int64_t b0 = 0; b0 < s.p.n; b0 += s.block) {
    const std::int64_t count = std::min(s.block, s.p.n - b0);
    transpose_block(s, b0, count, sc);
    for (std::int64_t q = 0; q < nq; ++q) {
      block_distances(s, q0 + q, b0, count, sc);
      accumulate(s, sc.d2.data(), s.p.train_y + b0, count, k0, nk, sc.nearest[q],
                 &sc.num[q * nk], &sc.den[q * nk]);
    }
  }
  for (std::int64_t q = 0; q < nq; ++q) {
    for (std::int64_t k = 0; k < nk; ++k) {
      s.out[(k0 + k) * s.p.m + q0 + q] = sc.num[q * nk + k] / sc.den[q * nk + k];
    }
  }
}

// Runs fn(item, scratch) for items 0..count-1 on up to `threads` threads, handing items
// out through a shared counter. The first exception (bad_alloc) stops the others and is
// rethrown here.
template <class Fn>
void run_workers(int threads, std::int64_t count, const Fn& fn) {
  std::atomic<std::int64_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&] {
    try {
      Scratch scratch;
      for (std::int64_t i; (i = next.fetch_add(1)) < count;) fn(i, scratch);
    } catch (...) {
      next.store(count);
      const std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
    }
  };
  const auto workers = static_cast<int>(std::min<std::int64_t>(threads, count));
  std::vector<std::thread> pool;
  for (int t = 1; t < workers; ++t) pool.emplace_back(work);
  work();  // this thread is a worker too
  for (std::thread& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Predictions of every bandwidth, out[k * m + i]: the kernel behind predict_vectorized,
// predict_parallel and grid_search. Work items are (query tile, bandwidth group) pairs;
// tiles shrink (to 1 query) before bandwidths are split, because the distances of a
// tile are computed once for all the bandwidths of its item.
void sweep(const Problem& p, const std::vector<double>& bandwidths, int threads, double* out) {
  Sweep s{p, train_norms(p), {}, 0, 0, 0, out};
  for (double h : bandwidths) s.inv_h.push_back(1.0 / h);
  s.block = std::max<std::int64_t>(16, kTrainBlockBytes / (sizeof(double) * p.d));
  const std::int64_t wanted = kItemsPerThread * threads;
  s.query_tile = threads == 1 ? kQueryTile : std::clamp(p.m / wanted, std::int64_t{1}, kQueryTile);
  const std::int64_t tiles = ceil_div(p.m, s.query_tile);
  const auto nk = static_cast<std::int64_t>(bandwidths.size());
  const std::int64_t groups =
      threads == 1 ? 1 : std::clamp(ceil_div(wanted, tiles), std::int64_t{1}, nk);
  s.bw_group = ceil_div(nk, groups);
  const std::int64_t group_count = ceil_div(nk, s.bw_group);
  run_workers(threads, tiles * group_count, [&](std::int64_t item, Scratch& sc) {
    const std::int64_t q0 = (item / group_count) * s.query_tile;
    const std::int64_t k0 = (item % group_count) * s.bw_group;
    run_item(s, q0, std::min(q0 + s.query_tile, p.m), k0, std::min(k0 + s.bw_group, nk), sc);
  });
}

}  // namespace

void predict_naive(const Problem& p, double h, double* out) {
  check_problem("predict_naive", p);
  check_bandwidth("predict_naive", "h", h);
  if (!out) invalid("predict_naive", "out is null");
  const double inv_h = 1.0 / h;
  for (std::int64_t i = 0; i < p.m; ++i) {
    const float* z = p.query_x + i * p.d;
    double nearest = kInf;  // d_i: M_i = -d_i / (2h^2)
    for (std::int64_t j = 0; j < p.n; ++j) {
      nearest = std::min(nearest, squared_distance(z, p.train_x + j * p.d, p.d));
    }
    double num = 0, den = 0;
    for (std::int64_t j = 0; j < p.n; ++j) {
      const double d2 = squared_distance(z, p.train_x + j * p.d, p.d);
      const double w = kernel_weight(d2 - nearest, inv_h);
      num += w * static_cast<double>(p.train_y[j]);
      den += w;
    }
    out[i] = num / den;  // den >= 1: the nearest point's weight is exactly 1
  }
}

void predict_vectorized(const Problem& p, double h, double* out) {
  check_problem("predict_vectorized", p);
  check_bandwidth("predict_vectorized", "h", h);
  if (!out) invalid("predict_vectorized", "out is null");
  sweep(p, {h}, 1, out);
}

void predict_parallel(const Problem& p, double h, double* out, int threads) {
  check_problem("predict_parallel", p);
  check_bandwidth("predict_parallel", "h", h);
  check_threads("predict_parallel", threads);
  if (!out) invalid("predict_parallel", "out is null");
  sweep(p, {h}, threads, out);
}

double r_squared(const float* truth, const double* pred, std::int64_t m) {
  if (m < 1) invalid("r_squared", "m must be >= 1, got " + std::to_string(m));
  if (!truth) invalid("r_squared", "truth is null");
  if (!pred) invalid("r_squared", "pred is null");
  double mean = 0;
  for (std::int64_t i = 0; i < m; ++i) mean += truth[i];
  mean /= static_cast<double>(m);
  double ss_res = 0, ss_tot = 0;
  for (std::int64_t i = 0; i < m; ++i) {
    const double y = truth[i];
    ss_res += (y - pred[i]) * (y - pred[i]);
    ss_tot += (y - mean) * (y - mean);
  }
  // A constant truth: scikit-learn's rule (nw_cpu.hpp), and NaN stays NaN.
  if (ss_tot == 0) return std::isnan(ss_res) ? ss_res : (ss_res == 0 ? 1.0 : 0.0);
  return 1.0 - ss_res / ss_tot;
}

std::vector<double> grid_search(const Problem& p, const float* query_y,
                                const std::vector<double>& bandwidths, int threads) {
  check_problem("grid_search", p);
  if (!query_y) invalid("grid_search", "query_y is null");
  if (bandwidths.empty()) invalid("grid_search", "bandwidths is empty");
  for (std::size_t k = 0; k < bandwidths.size(); ++k) {
    check_bandwidth("grid_search", "bandwidths[" + std::to_string(k) + "]", bandwidths[k]);
  }
  check_threads("grid_search", threads);
  std::vector<double> pred(bandwidths.size() * static_cast<std::size_t>(p.m));
  sweep(p, bandwidths, threads, pred.data());
  std::vector<double> r2;
  for (std::size_t k = 0; k < bandwidths.size(); ++k) {
    r2.push_back(r_squared(query_y, pred.data() + k * static_cast<std::size_t>(p.m), p.m));
  }
  return r2;
}

std::size_t best_bandwidth(const std::vector<double>& r2) {
  if (r2.empty()) invalid("best_bandwidth", "r2 is empty");
  std::size_t best = r2.size();
  for (std::size_t k = 0; k < r2.size(); ++k) {
    // Strictly greater: a tie keeps the earlier index. NaN compares false: never chosen.
    if (!std::isnan(r2[k]) && (best == r2.size() || r2[k] > r2[best])) best = k;
  }
  if (best == r2.size()) invalid("best_bandwidth", "r2 holds no number (all NaN)");
  return best;
}

}  // namespace lab02::reference
