// The host fill of fresh GPU inputs (harness/gpu/fresh_inputs.hpp) against the standard
// library's uniform distribution, side by side (docs/performance.md, "Fresh inputs ...").
// g++ -std=c++20 -O2 -Iharness/include bench/fresh_fill.cpp -o /tmp/fresh_fill && /tmp/fresh_fill
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>
#include "parlab/harness/gpu/fresh_inputs.hpp"
int main() {
  std::vector<float> v(1 << 24);
  for (int r = 0; r < 2; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    parlab::harness::gpu::fill_uniform(v, 42 + r);
    auto t1 = std::chrono::steady_clock::now();
    std::printf("fill_uniform: %.1f ms for 16M floats (%.2f ns each)\n", std::chrono::duration<double, std::milli>(t1 - t0).count(),
                std::chrono::duration<double, std::nano>(t1 - t0).count() / v.size());
  }
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  auto t0 = std::chrono::steady_clock::now();
  for (float& x : v) x = d(rng);
  auto t1 = std::chrono::steady_clock::now();
  std::printf("uniform_real_distribution: %.1f ms (%.2f ns each)\n", std::chrono::duration<double, std::milli>(t1 - t0).count(), std::chrono::duration<double, std::nano>(t1 - t0).count() / v.size());
}
