#pragma once
// Random draws that give the same numbers with every standard library and compiler.
// std::mt19937_64's output is fixed by the standard, but std::*_distribution is not,
// so the distributions are written here with exact integer and IEEE arithmetic only.
#include <cstdint>
#include <random>

namespace parlab::datasets {

class PortableRandom {
 public:
  explicit PortableRandom(std::uint64_t seed) : engine_(seed) {}

  std::uint64_t next() { return engine_(); }

  // Uniform in [0, n), n > 0, without modulo bias (rejection of the short last range).
  std::uint64_t below(std::uint64_t n) {
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    std::uint64_t x;
    do {
      x = engine_();
    } while (x >= limit);
    return x % n;
  }

  // Uniform in [0, 1) with 53 random bits: exact, no rounding involved.
  double uniform01() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform01(); }

  // Mean 0, variance 1, bell shaped (Irwin-Hall sum of four uniforms), bounded by
  // +-3.46. Only + - * so the result is bit-identical everywhere; libm's log/cos (as
  // in Box-Muller) are not guaranteed to be.
  double approx_normal() {
    const double sum = uniform01() + uniform01() + uniform01() + uniform01();
    return (sum - 2.0) * 1.7320508075688772;  // sqrt(12 / 4)
  }

 private:
  std::mt19937_64 engine_;
};

// Decorrelates seeds derived from one another (SplitMix64 finalizer).
inline std::uint64_t mix_seed(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace parlab::datasets
