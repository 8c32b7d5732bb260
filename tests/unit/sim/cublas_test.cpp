// The simulator's cuBLAS: cublasSgemm's column-major semantics, transposes, alpha and
// beta, leading dimensions larger than the matrix, argument errors with cuBLAS's status
// codes, and device-memory checks. Expected values come from a plain double loop.
#include <cublas_v2.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "sim_test_support.hpp"

namespace {

// Element (i, j) of a column-major matrix stored with leading dimension ld, after op.
float at(const std::vector<float>& m, int ld, bool transpose, int i, int j) {
  return transpose ? m[j + static_cast<std::size_t>(i) * ld] : m[i + static_cast<std::size_t>(j) * ld];
}

// A value pattern that differs per element and is never 0.
std::vector<float> pattern(std::size_t count, float scale) {
  std::vector<float> v(count);
  for (std::size_t i = 0; i < count; ++i) {
    v[i] = scale * static_cast<float>(static_cast<int>((i * 7919) % 23) - 11) + 0.5f * scale;
  }
  return v;
}

struct Case {
  cublasOperation_t ta, tb;
  int m, n, k, lda, ldb, ldc;
  float alpha, beta;
};

// Runs one cublasSgemm on device copies and compares all of C (padding rows included:
// elements outside the m x n matrix must be left untouched).
void check_case(const Case& c) {
  const bool ta = c.ta != CUBLAS_OP_N, tb = c.tb != CUBLAS_OP_N;
  const std::vector<float> a = pattern(static_cast<std::size_t>(c.lda) * (ta ? c.m : c.k), 0.25f);
  const std::vector<float> b = pattern(static_cast<std::size_t>(c.ldb) * (tb ? c.k : c.n), 0.5f);
  const std::vector<float> c0 = pattern(static_cast<std::size_t>(c.ldc) * c.n, 1.0f);
  std::vector<double> expected(c0.begin(), c0.end());
  for (int j = 0; j < c.n; ++j) {
    for (int i = 0; i < c.m; ++i) {
      double sum = 0;
      for (int p = 0; p < c.k; ++p) {
        sum += static_cast<double>(at(a, c.lda, ta, i, p)) * at(b, c.ldb, tb, p, j);
      }
      const std::size_t idx = i + static_cast<std::size_t>(j) * c.ldc;
      expected[idx] = c.alpha * sum + (c.beta == 0 ? 0.0 : c.beta * static_cast<double>(c0[idx]));
    }
  }
  sim_test::DeviceArray<float> da(a), db(b), dc(c0);
  cublasHandle_t handle = nullptr;
  REQUIRE(cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS);
  REQUIRE(cublasSgemm(handle, c.ta, c.tb, c.m, c.n, c.k, &c.alpha, da.get(), c.lda, db.get(),
                      c.ldb, &c.beta, dc.get(), c.ldc) == CUBLAS_STATUS_SUCCESS);
  REQUIRE(cublasDestroy(handle) == CUBLAS_STATUS_SUCCESS);
  const std::vector<float> got = dc.to_host();
  for (std::size_t idx = 0; idx < got.size(); ++idx) {
    INFO("element " << idx << " (row " << idx % c.ldc << ", col " << idx / c.ldc << ")");
    CHECK(std::fabs(got[idx] - expected[idx]) <= 1e-4 * (1 + std::fabs(expected[idx])));
  }
}

}  // namespace

TEST_CASE("cublasSgemm is column-major: C = A B on a 2x3 by 3x2 example", "[sim][cublas]") {
  // A = [1 2 3; 4 5 6] column-major is {1,4, 2,5, 3,6}; B = [7 8; 9 10; 11 12].
  sim_test::DeviceArray<float> a({1, 4, 2, 5, 3, 6}), b({7, 9, 11, 8, 10, 12}), c(4, -1.0f);
  cublasHandle_t h = nullptr;
  REQUIRE(cublasCreate(&h) == CUBLAS_STATUS_SUCCESS);
  const float one = 1, zero = 0;
  REQUIRE(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 3, &one, a.get(), 2, b.get(), 3, &zero,
                      c.get(), 2) == CUBLAS_STATUS_SUCCESS);
  // [1 2 3; 4 5 6] [7 8; 9 10; 11 12] = [58 64; 139 154], column-major {58,139,64,154}.
  CHECK(c.to_host() == std::vector<float>{58, 139, 64, 154});
  cublasDestroy(h);
}

TEST_CASE("cublasSgemm: every transpose combination, alpha, beta and padded leading dimensions",
          "[sim][cublas]") {
  const cublasOperation_t ops[] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
  for (cublasOperation_t ta : ops) {
    for (cublasOperation_t tb : ops) {
      DYNAMIC_SECTION("op(A) " << ta << ", op(B) " << tb) {
        const int m = 37, n = 19, k = 23;
        const int lda = (ta == CUBLAS_OP_N ? m : k) + 3;
        const int ldb = (tb == CUBLAS_OP_N ? k : n) + 1;
        check_case({ta, tb, m, n, k, lda, ldb, m + 5, 1.5f, -0.5f});
      }
    }
  }
}

TEST_CASE("cublasSgemm: sizes around its tiles, several threads", "[sim][cublas]") {
  check_case({CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, 1, 1, 1, 1.0f, 0.0f});
  check_case({CUBLAS_OP_N, CUBLAS_OP_N, 65, 67, 3, 65, 3, 65, 1.0f, 0.0f});
  check_case({CUBLAS_OP_T, CUBLAS_OP_N, 130, 129, 200, 200, 200, 131, 2.0f, 1.0f});
}

TEST_CASE("cublasSgemm with beta = 0 never reads C (NaN in C is overwritten)", "[sim][cublas]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  sim_test::DeviceArray<float> a(std::vector<float>{1, 2}), b(std::vector<float>{3, 4}), c(1, nan);
  cublasHandle_t h = nullptr;
  REQUIRE(cublasCreate(&h) == CUBLAS_STATUS_SUCCESS);
  const float one = 1, zero = 0;
  // 1x2 times 2x1: 1*3 + 2*4 = 11.
  REQUIRE(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 2, &one, a.get(), 1, b.get(), 2, &zero,
                      c.get(), 1) == CUBLAS_STATUS_SUCCESS);
  CHECK(c.to_host() == std::vector<float>{11});
  // k = 0: C = beta C, A and B untouched (null is fine).
  const float two = 2;
  REQUIRE(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 0, &one, nullptr, 1, nullptr, 1, &two,
                      c.get(), 1) == CUBLAS_STATUS_SUCCESS);
  CHECK(c.to_host() == std::vector<float>{22});
  cublasDestroy(h);
}

TEST_CASE("cublasSgemm argument errors return cuBLAS's status codes", "[sim][cublas]") {
  sim_test::DeviceArray<float> a(16, 1.0f), b(16, 1.0f), c(16, 0.0f);
  const float one = 1, zero = 0;
  CHECK(cublasSgemm(nullptr, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, a.get(), 2, b.get(), 2,
                    &zero, c.get(), 2) == CUBLAS_STATUS_NOT_INITIALIZED);
  cublasHandle_t h = nullptr;
  REQUIRE(cublasCreate(&h) == CUBLAS_STATUS_SUCCESS);
  CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, -1, 2, 2, &one, a.get(), 2, b.get(), 2, &zero,
                    c.get(), 2) == CUBLAS_STATUS_INVALID_VALUE);
  // lda < m for op N, lda < k for op T, ldb < k, ldc < m.
  CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 3, 2, 2, &one, a.get(), 2, b.get(), 2, &zero,
                    c.get(), 3) == CUBLAS_STATUS_INVALID_VALUE);
  CHECK(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, 2, 2, 3, &one, a.get(), 2, b.get(), 3, &zero,
                    c.get(), 2) == CUBLAS_STATUS_INVALID_VALUE);
  CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 3, &one, a.get(), 2, b.get(), 2, &zero,
                    c.get(), 2) == CUBLAS_STATUS_INVALID_VALUE);
  CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, a.get(), 2, b.get(), 2, &zero,
                    c.get(), 1) == CUBLAS_STATUS_INVALID_VALUE);
  CHECK(cublasSgemm(h, static_cast<cublasOperation_t>(7), CUBLAS_OP_N, 2, 2, 2, &one, a.get(), 2,
                    b.get(), 2, &zero, c.get(), 2) == CUBLAS_STATUS_INVALID_VALUE);
  // m = 0 or n = 0: nothing to do.
  CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 0, 2, 2, &one, a.get(), 1, b.get(), 2, &zero,
                    c.get(), 1) == CUBLAS_STATUS_SUCCESS);
  cublasDestroy(h);
  CHECK(cublasDestroy(nullptr) == CUBLAS_STATUS_NOT_INITIALIZED);
}

TEST_CASE("cuBLAS handles keep their stream and pointer mode, status names", "[sim][cublas]") {
  cublasHandle_t h = nullptr;
  REQUIRE(cublasCreate(&h) == CUBLAS_STATUS_SUCCESS);
  cudaStream_t s = nullptr;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  CHECK(cublasSetStream(h, s) == CUBLAS_STATUS_SUCCESS);
  cudaStream_t got = nullptr;
  CHECK(cublasGetStream(h, &got) == CUBLAS_STATUS_SUCCESS);
  CHECK(got == s);
  CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE) == CUBLAS_STATUS_SUCCESS);
  cublasPointerMode_t mode = CUBLAS_POINTER_MODE_HOST;
  CHECK(cublasGetPointerMode(h, &mode) == CUBLAS_STATUS_SUCCESS);
  CHECK(mode == CUBLAS_POINTER_MODE_DEVICE);
  CHECK(cublasSetStream(h, nullptr) == CUBLAS_STATUS_SUCCESS);
  cudaStreamDestroy(s);
  cublasDestroy(h);
  CHECK(std::string(cublasGetStatusName(CUBLAS_STATUS_INVALID_VALUE)) == "CUBLAS_STATUS_INVALID_VALUE");
  CHECK(std::string(cublasGetStatusString(CUBLAS_STATUS_SUCCESS)).size() > 0);
  CHECK(CUBLAS_STATUS_EXECUTION_FAILED == 13);
  CHECK(CUBLAS_OP_T == 1);
}

TEST_CASE("cublasSgemm on host memory or a too-small buffer stops like an illegal address",
          "[sim][cublas]") {
  const auto host = sim_test::run_in_child([] {
    std::vector<float> a(4, 1.0f), b(4, 1.0f);
    sim_test::DeviceArray<float> c(4);
    cublasHandle_t h = nullptr;
    cublasCreate(&h);
    const float one = 1, zero = 0;
    cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, a.data(), 2, b.data(), 2, &zero,
                c.get(), 2);
  });
  CHECK(host.exit_code == parlab_sim::kExitMemoryFault);
  CHECK_THAT(host.stderr_text, Catch::Contains("matrix A") && Catch::Contains("not device memory"));

  const auto small = sim_test::run_in_child([] {
    sim_test::DeviceArray<float> a(4, 1.0f), b(4, 1.0f), c(3);
    cublasHandle_t h = nullptr;
    cublasCreate(&h);
    const float one = 1, zero = 0;
    cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, a.get(), 2, b.get(), 2, &zero,
                c.get(), 2);
  });
  CHECK(small.exit_code == parlab_sim::kExitMemoryFault);
  CHECK_THAT(small.stderr_text, Catch::Contains("matrix C") && Catch::Contains("does not fit"));
}

TEST_CASE("cublasSgemm sees a pending asynchronous copy to the device from pinned memory",
          "[sim][cublas][h2d]") {
  float* pinned = nullptr;
  REQUIRE(cudaMallocHost(&pinned, 4 * sizeof(float)) == cudaSuccess);
  pinned[0] = 2.0f;
  sim_test::DeviceArray<float> da(std::vector<float>{0.0f}), db(std::vector<float>{3.0f}),
      dc(std::vector<float>{0.0f});
  cudaStream_t stream = nullptr;
  REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
  // The copy reads its source late (copies/deferred_copies): cuBLAS's work is after it.
  REQUIRE(cudaMemcpyAsync(da.get(), pinned, sizeof(float), cudaMemcpyHostToDevice, stream) == cudaSuccess);
  cublasHandle_t handle = nullptr;
  REQUIRE(cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS);
  REQUIRE(cublasSetStream(handle, stream) == CUBLAS_STATUS_SUCCESS);
  const float alpha = 1.0f, beta = 0.0f;
  REQUIRE(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &alpha, da.get(), 1, db.get(), 1, &beta,
                      dc.get(), 1) == CUBLAS_STATUS_SUCCESS);
  REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  CHECK(dc.to_host()[0] == 6.0f);
  REQUIRE(cublasDestroy(handle) == CUBLAS_STATUS_SUCCESS);
  REQUIRE(cudaStreamDestroy(stream) == cudaSuccess);
  REQUIRE(cudaFreeHost(pinned) == cudaSuccess);
}
