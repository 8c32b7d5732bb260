#pragma once
// Lab 04 (grader-owned, host code): new content for every timed repetition of a
// reduction, so a result kept from an earlier call (by pointer, by a hash of a few
// elements, from the warm-up) cannot stand in for the work being timed; the call's
// whole result is then checked against the new content, recomputed on the host.
// Every element is drawn again from a seed the submission is not given, with the
// dataset's character kept (the timing must measure the same work): floats in
// [lo, lo + 1) with lo drawn in [1, 2) (the dataset's are in [1, 2)), ints uniform up
// to a drawn maximum, keys relabelled by a drawn permutation of the bins (a hot bin
// stays as hot) with one key in eight redrawn. An offset alone could be read back from
// one element and the old result adjusted; these need the whole input.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "parlab/harness/gpu/device_buffer.hpp"
#include "parlab/harness/gpu/fresh_inputs.hpp"

namespace lab04 {

template <class T>
class ReductionFreshInputs {
 public:
  using Draw = std::function<void(std::span<const T> dataset, std::span<T> fresh, std::mt19937_64& rng)>;
  // Says what differs between the device result and the one `fresh` gives, or "".
  using Check = std::function<std::string(std::span<const T> fresh)>;

  ReductionFreshInputs(parlab::harness::gpu::DeviceBuffer<T>& input, const std::vector<T>& dataset,
                       Draw draw, Check check)
      : input_(input), dataset_(dataset), fresh_(dataset.size()), draw_(std::move(draw)),
        check_(std::move(check)) {}

  parlab::harness::gpu::FreshInputs steps() {
    return {[this](std::uint64_t seed) {
              std::mt19937_64 rng(seed);
              draw_(dataset_, fresh_, rng);
              input_.upload(std::span<const T>(fresh_));
            },
            [this] { return check_(fresh_); },
            [this] { input_.upload(std::span<const T>(dataset_)); }};
  }

 private:
  parlab::harness::gpu::DeviceBuffer<T>& input_;
  const std::vector<T>& dataset_;
  std::vector<T> fresh_;
  Draw draw_;
  Check check_;
};

inline void draw_floats(std::span<const float>, std::span<float> fresh, std::mt19937_64& rng) {
  const double lo = std::uniform_real_distribution<double>(1.0, 2.0)(rng);
  parlab::harness::gpu::fill_uniform(fresh, rng());  // [-1, 1)
  for (float& x : fresh) x = static_cast<float>(lo + 0.5 * (static_cast<double>(x) + 1.0));
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
