// lab04's fresh content for timed repetitions (labs/lab04-atomics-reductions/reduction_draws.hpp):
// the sum's content must be summed exactly by any honest float grouping (an exact check
// then fails no honest kernel), and must change the sum from one draw to the next (a
// kept result fails).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <random>
#include <vector>

#include "reduction_draws.hpp"

namespace {

// One atomicAdd of a float block sum per block, in block order: the chain that drifted
// past 1e-4 on an H200 with values in [lo, lo + 1) (docs/performance.md); block 1 is
// one atomicAdd per element, a sum one element after the other.
float block_sums_then_atomics(const std::vector<float>& v, std::size_t block) {
  float total = 0.0f;
  for (std::size_t b = 0; b < v.size(); b += block) {
    float partial = 0.0f;
    for (std::size_t i = b; i < std::min(v.size(), b + block); ++i) partial += v[i];
    total += partial;
  }
  return total;
}

double exact_sum(const std::vector<float>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

}  // namespace

TEST_CASE("the sum's fresh content is whole numbers from -8 to 8, summed exactly by any grouping") {
  std::vector<float> fresh(std::size_t{1} << 22);
  std::mt19937_64 rng(7);
  lab04::draw_floats({}, fresh, rng);
  for (float x : fresh) {
    REQUIRE(x == std::floor(x));
    REQUIRE(x >= -8.0f);
    REQUIRE(x <= 8.0f);
  }
  const double want = exact_sum(fresh);
  for (std::size_t block : {1, 32, 100, 256, 1024}) {
    INFO("block of " << block);
    CHECK(static_cast<double>(block_sums_then_atomics(fresh, block)) == want);
  }
}

TEST_CASE("two draws of the sum's content give different sums") {
  std::vector<float> a(std::size_t{1} << 20), b(a.size());
  std::mt19937_64 rng(11);
  lab04::draw_floats({}, a, rng);
  lab04::draw_floats({}, b, rng);
  CHECK(exact_sum(a) != exact_sum(b));
  CHECK(a != b);
}
