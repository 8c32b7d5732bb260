// A blocked, multi-threaded float GEMM, fast enough that a lab's cuBLAS baseline does
// not dominate a sim-mode run. op(A) and op(B) are first copied into contiguous
// panels (so transposes and leading dimensions cost nothing in the inner loop), then
// threads take tiles of C off a shared counter. Each tile is computed four columns at
// a time: the inner loop over rows reads op(A) once for four multiply-adds and is
// contiguous, so the compiler vectorizes it.
#include "cublas/cpu_sgemm.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace parlab_sim::detail {
namespace {

constexpr int kRowsPerTile = 64;  // op(A) rows of a tile: 64 x k floats stay in L2
constexpr int kColsPerTile = 64;
constexpr int kColGroup = 4;      // columns of C computed together

struct Panels {
  int m, n, k, n_padded;
  std::vector<float> a;  // op(A), m x k, column-major: a[i + p*m]
  std::vector<float> b;  // op(B), k x n_padded, column-major: b[p + j*k]; padding is 0
};

Panels pack(const SgemmArgs& g) {
  Panels p{g.m, g.n, g.k, (g.n + kColGroup - 1) / kColGroup * kColGroup, {}, {}};
  const std::size_t m = g.m, n = g.n, k = g.k;
  p.a.resize(m * k);
  p.b.assign(k * static_cast<std::size_t>(p.n_padded), 0.0f);
  for (std::size_t q = 0; q < k; ++q) {
    for (std::size_t i = 0; i < m; ++i) {
      p.a[i + q * m] = g.transpose_a ? g.a[q + i * g.lda] : g.a[i + q * g.lda];
    }
  }
  for (std::size_t j = 0; j < n; ++j) {
    for (std::size_t q = 0; q < k; ++q) {
      p.b[q + j * k] = g.transpose_b ? g.b[j + q * g.ldb] : g.b[q + j * g.ldb];
    }
  }
  return p;
}

// C[i0 .. i0+rows) x [j0 .. j0+cols) of one tile.
void compute_tile(const SgemmArgs& g, const Panels& p, int i0, int rows, int j0, int cols) {
  const std::size_t m = p.m, k = p.k;
  for (int jg = j0; jg < j0 + cols; jg += kColGroup) {
    float acc[kColGroup][kRowsPerTile] = {};
    const float* b0 = &p.b[static_cast<std::size_t>(jg) * k];
    for (std::size_t q = 0; q < k; ++q) {
      const float* a = &p.a[i0 + q * m];
      const float x0 = b0[q], x1 = b0[q + k], x2 = b0[q + 2 * k], x3 = b0[q + 3 * k];
      for (int i = 0; i < rows; ++i) {
        acc[0][i] += a[i] * x0;
        acc[1][i] += a[i] * x1;
        acc[2][i] += a[i] * x2;
        acc[3][i] += a[i] * x3;
      }
    }
    for (int c = 0; c < kColGroup && jg + c < g.n; ++c) {
      float* out = g.c + static_cast<std::size_t>(jg + c) * g.ldc + i0;
      for (int i = 0; i < rows; ++i) {
        // beta == 0: C is not read (cuBLAS semantics; it may hold NaN).
        out[i] = g.beta == 0.0f ? g.alpha * acc[c][i] : g.alpha * acc[c][i] + g.beta * out[i];
      }
    }
  }
}

void scale_c(const SgemmArgs& g) {
  for (int j = 0; j < g.n; ++j) {
    float* col = g.c + static_cast<std::size_t>(j) * g.ldc;
    for (int i = 0; i < g.m; ++i) col[i] = g.beta == 0.0f ? 0.0f : g.beta * col[i];
  }
}

}  // namespace

void cpu_sgemm(const SgemmArgs& g, unsigned threads) {
  if (g.m == 0 || g.n == 0) return;
  if (g.k == 0 || g.alpha == 0.0f) {  // BLAS: A and B are not read
    scale_c(g);
    return;
  }
  const Panels p = pack(g);
  const int row_tiles = (g.m + kRowsPerTile - 1) / kRowsPerTile;
  const int col_tiles = (p.n_padded + kColsPerTile - 1) / kColsPerTile;
  const int tiles = row_tiles * col_tiles;
  std::atomic<int> next{0};
  auto worker = [&] {
    for (int t; (t = next.fetch_add(1)) < tiles;) {
      const int i0 = (t % row_tiles) * kRowsPerTile;
      const int j0 = (t / row_tiles) * kColsPerTile;
      compute_tile(g, p, i0, std::min(kRowsPerTile, g.m - i0), j0,
                   std::min(kColsPerTile, p.n_padded - j0));
    }
  };
  // Small products are not worth a thread start (~50 us): about 2^20 multiply-adds each.
  const double fmas = static_cast<double>(g.m) * g.n * g.k;
  const unsigned useful = static_cast<unsigned>(std::clamp(fmas / (1 << 20), 1.0, 1024.0));
  const unsigned count = std::max(1u, std::min({threads, useful, static_cast<unsigned>(tiles)}));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < count; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
}

}  // namespace parlab_sim::detail
