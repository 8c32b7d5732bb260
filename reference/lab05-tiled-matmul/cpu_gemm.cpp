// The CPU reference SGEMM, in double: cache-blocked and multi-threaded, so expected
// outputs of large performance datasets take seconds, not minutes, and the CPU
// baseline of the "GPU vs CPU" test is a fair one (not a naive triple loop).
//
// Threads take panels of 32 rows of C off a shared counter. Within a panel, a block of
// B (kKBlock x kNBlock doubles, 256 KiB, in L2) is reused by every 4-row group of the
// panel; a 4-row group updates 4 rows of C (8 KiB, in L1) with one read of each B
// element for 4 multiply-adds, in a contiguous inner loop the compiler vectorizes.
#include "cpu_gemm.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>

namespace lab05 {
namespace {

constexpr int kPanelRows = 32;
constexpr int kKBlock = 128;
constexpr int kNBlock = 256;

struct Operands {
  std::size_t m, n, k;
  std::vector<double> a, b;  // the float inputs widened once (exactly)
};

// C[i0 .. i0+rows) x [j0 .. j1) += A[.., k0 .. k1) * B[k0 .. k1, j0 .. j1)
void update_rows(const Operands& o, double* c, std::size_t i0, std::size_t rows, std::size_t k0,
                 std::size_t k1, std::size_t j0, std::size_t j1) {
  std::size_t i = i0;
  for (; i + 4 <= i0 + rows; i += 4) {
    double* c0 = c + i * o.n;
    double* c1 = c0 + o.n;
    double* c2 = c1 + o.n;
    double* c3 = c2 + o.n;
    for (std::size_t p = k0; p < k1; ++p) {
      const double a0 = o.a[i * o.k + p], a1 = o.a[(i + 1) * o.k + p],
                   a2 = o.a[(i + 2) * o.k + p], a3 = o.a[(i + 3) * o.k + p];
      const double* b = &o.b[p * o.n];
      for (std::size_t j = j0; j < j1; ++j) {
        c0[j] += a0 * b[j];
        c1[j] += a1 * b[j];
        c2[j] += a2 * b[j];
        c3[j] += a3 * b[j];
      }
    }
  }
  for (; i < i0 + rows; ++i) {  // the last 1-3 rows of the matrix
    double* ci = c + i * o.n;
    for (std::size_t p = k0; p < k1; ++p) {
      const double a = o.a[i * o.k + p];
      const double* b = &o.b[p * o.n];
      for (std::size_t j = j0; j < j1; ++j) ci[j] += a * b[j];
    }
  }
}

void compute_panel(const Operands& o, double* c, std::size_t i0, std::size_t rows) {
  for (std::size_t j0 = 0; j0 < o.n; j0 += kNBlock) {
    const std::size_t j1 = std::min(o.n, j0 + kNBlock);
    for (std::size_t k0 = 0; k0 < o.k; k0 += kKBlock) {
      update_rows(o, c, i0, rows, k0, std::min(o.k, k0 + kKBlock), j0, j1);
    }
  }
}

}  // namespace

std::vector<double> cpu_gemm(const GemmProblem& p, unsigned threads) {
  Operands o{static_cast<std::size_t>(p.m), static_cast<std::size_t>(p.n),
             static_cast<std::size_t>(p.k), std::vector<double>(p.a.begin(), p.a.end()),
             std::vector<double>(p.b.begin(), p.b.end())};
  std::vector<double> c(o.m * o.n, 0.0);
  const std::size_t panels = (o.m + kPanelRows - 1) / kPanelRows;
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t t; (t = next.fetch_add(1)) < panels;) {
      const std::size_t i0 = t * kPanelRows;
      compute_panel(o, c.data(), i0, std::min<std::size_t>(kPanelRows, o.m - i0));
    }
  };
  const unsigned count =
      static_cast<unsigned>(std::clamp<std::size_t>(threads, 1, std::max<std::size_t>(panels, 1)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < count; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  return c;
}

}  // namespace lab05
