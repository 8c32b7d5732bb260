#pragma once
// Lab 05 (grader-owned, host code only): one matrix product read from a dataset and the
// output array "c". Shared by the driver, the reference's extra tasks and the CPU
// reference, so all of them read the same inputs and write the same output.
//
// Dataset (datasets/src/matmul_pair.cpp): "shape" i64 [M, N, K], "a" f32 M*K and
// "b" f32 K*N, both row-major.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "parlab/harness/dataset_inputs.hpp"

namespace lab05 {

struct GemmProblem {
  int m = 0, n = 0, k = 0;
  std::vector<float> a;  // M x K, row-major
  std::vector<float> b;  // K x N, row-major
  std::size_t c_count() const { return static_cast<std::size_t>(m) * static_cast<std::size_t>(n); }
};

inline GemmProblem load_problem(const std::filesystem::path& dir) {
  namespace h = parlab::harness;
  const std::vector<std::int64_t> shape = h::read_shape(
      dir, {{"M", 1, 1 << 16}, {"N", 1, 1 << 16}, {"K", 1, 1 << 16}}, "matmul_pair");
  GemmProblem p;
  p.m = static_cast<int>(shape[0]);
  p.n = static_cast<int>(shape[1]);
  p.k = static_cast<int>(shape[2]);
  const auto m = static_cast<std::size_t>(p.m), n = static_cast<std::size_t>(p.n),
             k = static_cast<std::size_t>(p.k);
  p.a = h::read_array_of<float>(dir, "a", static_cast<std::int64_t>(m * k), "M * K");
  p.b = h::read_array_of<float>(dir, "b", static_cast<std::int64_t>(k * n), "K * N");
  // The kernels index with int: every matrix must have fewer than 2^31 elements.
  constexpr std::size_t kMaxElements = std::size_t{1} << 31;
  if (m * k >= kMaxElements || k * n >= kMaxElements || m * n >= kMaxElements) {
    throw h::DatasetError("a matrix of 2^31 or more elements; int indices overflow");
  }
  return p;
}

// Element labels ("row i, col j") make a mismatch readable; beyond this many elements
// they would only bloat the output manifest, and the index i*N + j says the same.
inline constexpr std::size_t kMaxLabelledElements = std::size_t{1} << 16;

inline std::vector<std::string> element_labels(int m, int n) {
  std::vector<std::string> labels;
  if (static_cast<std::size_t>(m) * static_cast<std::size_t>(n) > kMaxLabelledElements) {
    return labels;
  }
  labels.reserve(static_cast<std::size_t>(m) * static_cast<std::size_t>(n));
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      labels.push_back("row " + std::to_string(i) + ", col " + std::to_string(j));
    }
  }
  return labels;
}

// The output every task writes: C, M x N row-major (f32 from a GPU, f64 expected).
template <class T>
void write_c(parlab::harness::OutputWriter& out, std::span<const T> c, int m, int n) {
  out.write("c", c, element_labels(m, n));
}

// What one product must at least compute and move (roofline feedback): 2 flops per
// multiply-add; A and B read once and C written once.
inline double gemm_flops(const GemmProblem& p) {
  return 2.0 * p.m * static_cast<double>(p.n) * p.k;
}
inline double gemm_bytes(const GemmProblem& p) {
  return 4.0 * (static_cast<double>(p.m) * p.k + static_cast<double>(p.k) * p.n +
                static_cast<double>(p.m) * p.n);
}

}  // namespace lab05
