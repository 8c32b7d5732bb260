#pragma once
// Lab 05 (grader-owned, host code): new A and B for each timed repetition of a GPU
// product, and a check of the product the student's call returned for them. The check
// recomputes a sample of C's elements on the host (each a K-term dot product in double),
// so it costs O(samples * K), not a whole product.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "gemm_problem.hpp"
#include "parlab/harness/gpu/device_buffer.hpp"
#include "parlab/harness/gpu/fresh_inputs.hpp"

namespace lab05 {

class GemmFreshInputs {
 public:
  GemmFreshInputs(const GemmProblem& p, parlab::harness::gpu::DeviceBuffer<float>& a,
                  parlab::harness::gpu::DeviceBuffer<float>& b,
                  const parlab::harness::gpu::DeviceBuffer<float>& c)
      : p_(p), a_(a), b_(b), c_(c), fresh_a_(p.a.size()), fresh_b_(p.b.size()) {}

  parlab::harness::gpu::FreshInputs steps() {
    return {[this](std::uint64_t seed) { refresh(seed); }, [this] { return check(); },
            [this] {
              fresh_ = false;
              a_.upload(p_.a);
              b_.upload(p_.b);
            }};
  }

  // The host content of the coming call: the fresh A and B after a refresh, the
  // dataset's after the restore. A round trip uploads these inside its timed call.
  std::span<const float> host_a() const { return fresh_ ? fresh_a_ : p_.a; }
  std::span<const float> host_b() const { return fresh_ ? fresh_b_ : p_.b; }

 private:
  // Elements of C recomputed per repetition: a kept or skipped result fails at the first.
  static constexpr int kSampledElements = 64;

  void refresh(std::uint64_t seed) {
    rng_.seed(seed);
    parlab::harness::gpu::fill_uniform(fresh_a_, rng_());
    parlab::harness::gpu::fill_uniform(fresh_b_, rng_());
    a_.upload(fresh_a_);
    b_.upload(fresh_b_);
    fresh_ = true;
  }

  // Each sampled C[i][j] within 1e-3 of the sum of |A[i][l] * B[l][j]|: float rounding of
  // K terms in any order stays far below that, a result for other inputs does not.
  std::string check() {
    const std::vector<float> c = c_.download();
    const auto n = static_cast<std::size_t>(p_.n), k = static_cast<std::size_t>(p_.k);
    std::uniform_int_distribution<int> row(0, p_.m - 1), col(0, p_.n - 1);
    for (int s = 0; s < kSampledElements; ++s) {
      const auto i = static_cast<std::size_t>(row(rng_)), j = static_cast<std::size_t>(col(rng_));
      double exact = 0, magnitude = 0;
      for (std::size_t l = 0; l < k; ++l) {
        const double term = static_cast<double>(fresh_a_[i * k + l]) * fresh_b_[l * n + j];
        exact += term;
        magnitude += std::fabs(term);
      }
      const double got = c[i * n + j];
      if (!(std::fabs(got - exact) <= 1e-3 * magnitude + 1e-6)) {
        return "C at row " + std::to_string(i) + ", col " + std::to_string(j) + " is " +
               std::to_string(got) + " where these A and B give " + std::to_string(exact);
      }
    }
    return "";
  }

  const GemmProblem& p_;
  parlab::harness::gpu::DeviceBuffer<float>& a_;
  parlab::harness::gpu::DeviceBuffer<float>& b_;
  const parlab::harness::gpu::DeviceBuffer<float>& c_;
  std::vector<float> fresh_a_, fresh_b_;
  std::mt19937_64 rng_;
  bool fresh_ = false;
};

}  // namespace lab05
