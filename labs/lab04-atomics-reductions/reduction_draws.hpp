#pragma once
// Lab 04 (grader-owned, host code): the new input content of each timed repetition of a
// reduction (reduction_fresh_inputs.hpp), drawn from a seed the submission is not given,
// the work kept alike (the timing must measure the same work). An offset alone could be
// read back from one element and the old result adjusted; these need the whole input.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <numeric>
#include <random>
#include <span>
#include <vector>

#include "parlab/harness/gpu/fresh_inputs.hpp"

namespace lab04 {

// Whole numbers from -8 to 8, uniform. Every partial sum of them, in any order and any
// grouping, is a whole number far below 2^24 (2^26 of them sum to about +-40000), so a
// float sum of this content is exact however a submission groups it: block trees,
// atomics in any order, warp shuffles, Kahan. The check is then exact, and two contents
// of one size give different sums (a kept result fails; equal about once in 10^5). Values
// like the dataset's ([1, 2)) were tried first, with the lower end drawn: a long chain of
// atomicAdds of block sums that all round one way drifted by 1.5e-4 on an H200 (one per
// 256-thread block, 2^26 elements; up to 1.5e-3 with 100-thread blocks, on the host),
// past any tolerance that still told a kept result from a new one. The sum's work
// (one float load and one add per element) does not depend on the values.
inline void draw_floats(std::span<const float>, std::span<float> fresh, std::mt19937_64& rng) {
  parlab::harness::gpu::XorShift64Star bits(rng());
  for (float& x : fresh) x = static_cast<float>(static_cast<int>((bits.next() >> 32) % 17) - 8);
}

// Uniform over [INT_MIN + 1, hi] with hi drawn in [2^30, INT_MAX - 1]; never 0 or -1
// (the dataset's rule: -1 is the poison).
inline void draw_ints(std::span<const std::int32_t>, std::span<std::int32_t> fresh, std::mt19937_64& rng) {
  const std::int64_t lo = -2147483647LL, hi = std::uniform_int_distribution<std::int64_t>(1LL << 30, 2147483646LL)(rng);
  const auto span = static_cast<std::uint64_t>(hi - lo + 1);
  parlab::harness::gpu::XorShift64Star bits(rng());
  for (std::int32_t& v : fresh) {
    auto x = static_cast<std::int32_t>(lo + static_cast<std::int64_t>((bits.next() >> 32) * span >> 32));
    v = (x == 0 || x == -1) ? 1 : x;
  }
}

inline std::function<void(std::span<const std::int32_t>, std::span<std::int32_t>, std::mt19937_64&)>
key_drawer(int bins) {
  return [bins](std::span<const std::int32_t> dataset, std::span<std::int32_t> fresh, std::mt19937_64& rng) {
    std::vector<std::int32_t> relabel(static_cast<std::size_t>(bins));
    std::iota(relabel.begin(), relabel.end(), 0);
    std::shuffle(relabel.begin(), relabel.end(), rng);
    parlab::harness::gpu::XorShift64Star bits(rng());
    for (std::size_t i = 0; i < fresh.size(); ++i) {
      const std::uint64_t r = bits.next();
      const std::int32_t k = dataset[i];
      const bool in_range = k >= 0 && k < bins;
      fresh[i] = (r >> 61) == 0 || !in_range ? static_cast<std::int32_t>(((r >> 16) & 0xFFFFFFFFu) % bins)
                                             : relabel[static_cast<std::size_t>(k)];
    }
  };
}

}  // namespace lab04
