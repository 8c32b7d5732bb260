#pragma once
// Fresh inputs for a GPU call that takes host memory and returns host memory (a round
// trip, a pipeline of copies and kernels): the copies are inside the sample, so the new
// content goes into the host input itself. Each timed repetition after the first gets
// new floats in [-1, 1] from the seed gpu_timed draws, and 64 output elements chosen
// after the call are checked against `expected(index, input)` in double, within
// 1e-4 (1 + |expected|) like sampled_fresh_inputs.hpp. Without it, a call that kept the
// host output of its first call (by pointer) and copied it back would be timed as one
// host memcpy.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "parlab/harness/gpu/fresh_inputs.hpp"

namespace parlab::harness::gpu {

class HostSampledFreshInputs {
 public:
  using Expected = std::function<double(std::size_t index, std::span<const float> input)>;

  // `input` and `output` are the buffers the call is given; `dataset` is put back into
  // `input` for the last, compared call.
  HostSampledFreshInputs(std::span<float> input, std::span<const float> output,
                         const std::vector<float>& dataset, std::string output_name, Expected expected)
      : input_(input), output_(output), dataset_(dataset), output_name_(std::move(output_name)),
        expected_(std::move(expected)) {}

  FreshInputs steps() {
    return {[this](std::uint64_t seed) {
              rng_.seed(seed);
              fill_uniform(input_, rng_());
            },
            [this] { return check(); },
            [this] { std::copy(dataset_.begin(), dataset_.end(), input_.begin()); }};
  }

 private:
  std::string check() {
    return check_sampled_elements(output_, rng_, output_name_, [this](std::size_t i) { return expected_(i, input_); });
  }

  std::span<float> input_;
  std::span<const float> output_;
  const std::vector<float>& dataset_;
  std::string output_name_;
  Expected expected_;
  std::mt19937_64 rng_;
};

}  // namespace parlab::harness::gpu
