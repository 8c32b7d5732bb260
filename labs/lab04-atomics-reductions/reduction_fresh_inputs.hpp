#pragma once
// Lab 04 (grader-owned, host code): new content for every timed repetition of a
// reduction, so a result kept from an earlier call (by pointer, by a hash of a few
// elements, from the warm-up) cannot stand in for the work being timed; the call's
// whole result is then checked against the new content, recomputed on the host.
// Every element is drawn again from a seed the submission is not given
// (reduction_draws.hpp says how, and why the sums' content is whole numbers).
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
#include "reduction_draws.hpp"

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

}  // namespace lab04
