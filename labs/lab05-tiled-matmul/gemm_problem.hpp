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

#include "parlab/harness/arrays.hpp"

namespace lab05 {

struct GemmProblem {
  int m = 0, n = 0, k = 0;
  std::vector<float> a;  // M x K, row-major
  std::vector<float> b;  // K x N, row-major
  std::size_t c_count() const { return static_cast<std::size_t>(m) * static_cast<std::size_t>(n); }
};

inline GemmProblem load_problem(const std::filesystem::path& dir) {
  namespace h = parlab::harness;
  const std::vector<std::int64_t> shape = h::read_array<std::int64_t>(dir, "shape");
  if (shape.size() != 3) {
    throw std::runtime_error("dataset: 'shape' must hold [M, N, K], got " +
                             std::to_string(shape.size()) + " values");
  }
  for (std::int64_t s : shape) {
    if (s < 1 || s > (1 << 16)) {
      throw std::runtime_error("dataset: matrix size " + std::to_string(s) +
                               " outside [1, 65536]");
    }
  }
  GemmProblem p;
  p.m = static_cast<int>(shape[0]);
  p.n = static_cast<int>(shape[1]);
  p.k = static_cast<int>(shape[2]);
  p.a = h::read_array<float>(dir, "a");
  p.b = h::read_array<float>(dir, "b");
  const auto m = static_cast<std::size_t>(p.m), n = static_cast<std::size_t>(p.n),
             k = static_cast<std::size_t>(p.k);
  if (p.a.size() != m * k || p.b.size() != k * n) {
    throw std::runtime_error("dataset: 'a' has " + std::to_string(p.a.size()) + " and 'b' " +
                             std::to_string(p.b.size()) + " elements; shape [M, N, K] = [" +
                             std::to_string(m) + ", " + std::to_string(n) + ", " +
                             std::to_string(k) + "] needs M*K and K*N");
  }
  // The kernels index with int: every matrix must have fewer than 2^31 elements.
  constexpr std::size_t kMaxElements = std::size_t{1} << 31;
  if (m * k >= kMaxElements || k * n >= kMaxElements || m * n >= kMaxElements) {
    throw std::runtime_error("dataset: a matrix of 2^31 or more elements; int indices overflow");
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
