// The lab05 CPU reference (the source of every expected output): hand-checked small
// products, edge shapes across its blocking, any thread count, and the dataset loader.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>

#include "cpu_gemm.hpp"
#include "lab05_test_support.hpp"

namespace {

lab05::GemmProblem make(int m, int n, int k, std::vector<float> a, std::vector<float> b) {
  lab05::GemmProblem p;
  p.m = m;
  p.n = n;
  p.k = k;
  p.a = std::move(a);
  p.b = std::move(b);
  return p;
}

// Deterministic non-trivial values.
std::vector<float> values(std::size_t count, int salt) {
  std::vector<float> v(count);
  for (std::size_t i = 0; i < count; ++i) {
    v[i] = static_cast<float>(static_cast<int>((i * 31 + salt * 17) % 19) - 9) / 8.0f;
  }
  return v;
}

}  // namespace

TEST_CASE("cpu_gemm: a 2x3 by 3x2 product by hand", "[lab05][cpu_reference]") {
  // [1 2 3; 4 5 6] [7 8; 9 10; 11 12] = [58 64; 139 154]
  const auto p = make(2, 2, 3, {1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12});
  CHECK(lab05::cpu_gemm(p, 1) == std::vector<double>{58, 64, 139, 154});
  CHECK(lab05::cpu_gemm(p, 4) == std::vector<double>{58, 64, 139, 154});
}

TEST_CASE("cpu_gemm: 1x1x1, K = 1 outer product, and a row times a column",
          "[lab05][cpu_reference]") {
  CHECK(lab05::cpu_gemm(make(1, 1, 1, {0.5f}, {-3}), 2) == std::vector<double>{-1.5});
  CHECK(lab05::cpu_gemm(make(2, 3, 1, {1, 2}, {3, 4, 5}), 2) ==
        std::vector<double>{3, 4, 5, 6, 8, 10});
  CHECK(lab05::cpu_gemm(make(1, 1, 4, {1, 2, 3, 4}, {1, 1, 1, 1}), 2) == std::vector<double>{10});
}

TEST_CASE("cpu_gemm equals the triple loop in double on shapes across its blocks",
          "[lab05][cpu_reference]") {
  // Rows not a multiple of 4 or of a 32-row panel, N over one 256-column block, K over
  // one 128 block: every remainder path of the blocking.
  const int shapes[][3] = {{1, 300, 130}, {35, 257, 129}, {70, 3, 300}, {33, 33, 1}};
  for (const auto& s : shapes) {
    const int m = s[0], n = s[1], k = s[2];
    const auto p = make(m, n, k, values(static_cast<std::size_t>(m) * k, 1),
                        values(static_cast<std::size_t>(k) * n, 2));
    for (unsigned threads : {1u, 3u}) {
      const std::vector<double> c = lab05::cpu_gemm(p, threads);
      REQUIRE(c.size() == static_cast<std::size_t>(m) * n);
      for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
          double sum = 0;
          for (int q = 0; q < k; ++q) {
            sum += static_cast<double>(p.a[static_cast<std::size_t>(i) * k + q]) *
                   p.b[static_cast<std::size_t>(q) * n + j];
          }
          INFO(m << "x" << n << "x" << k << " threads " << threads << " at " << i << "," << j);
          REQUIRE(std::fabs(c[static_cast<std::size_t>(i) * n + j] - sum) <= 1e-12 * (1 + std::fabs(sum)));
        }
      }
    }
  }
}

TEST_CASE("load_problem reads a generated dataset and checks its shape", "[lab05][cpu_reference]") {
  const auto dir = lab05_test::generate("load", 5, 6, 7, 3);
  const lab05::GemmProblem p = lab05::load_problem(dir);
  CHECK(p.m == 5);
  CHECK(p.n == 6);
  CHECK(p.k == 7);
  CHECK(p.c_count() == 30u);
  CHECK(lab05::gemm_flops(p) == 2.0 * 5 * 6 * 7);

  // A dataset whose arrays do not match its shape is refused with a message.
  const auto bad = lab05_test::scratch("bad-shape");
  parlab::harness::OutputWriter w(bad);
  const std::vector<std::int64_t> shape = {2, 2, 2};
  const std::vector<float> three = {1, 2, 3};
  w.write("shape", std::span<const std::int64_t>(shape));
  w.write("a", std::span<const float>(three));
  w.write("b", std::span<const float>(three));
  w.finish();
  CHECK_THROWS_WITH(lab05::load_problem(bad),
                    Catch::Contains("dataset: 'a' has 3 elements, expected 4 (M * K)"));
}

TEST_CASE("output labels name row and column, and stop for large outputs", "[lab05][cpu_reference]") {
  const auto labels = lab05::element_labels(2, 3);
  REQUIRE(labels.size() == 6u);
  CHECK(labels[4] == "row 1, col 1");
  CHECK(lab05::element_labels(512, 512).empty());
}
