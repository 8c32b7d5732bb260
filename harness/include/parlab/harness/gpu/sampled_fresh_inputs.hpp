#pragma once
// Fresh inputs for a GPU call whose output elements can each be recomputed on the host
// cheaply (element-wise maps, stencils): new float content in [-1, 1] for every input
// at each timed repetition, and a check of 64 output elements chosen at random after
// the call, each against `expected(index, inputs)` computed in double. See
// fresh_inputs.hpp for where gpu_timed uses the steps.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "parlab/harness/gpu/device_buffer.hpp"
#include "parlab/harness/gpu/fresh_inputs.hpp"

namespace parlab::harness::gpu {

class SampledFreshInputs {
 public:
  struct Input {
    DeviceBuffer<float>* device;
    const std::vector<float>* dataset;  // uploaded again for the last, compared call
  };
  using Inputs = std::vector<std::vector<float>>;
  using Expected = std::function<double(std::size_t index, const Inputs& fresh)>;

  SampledFreshInputs(std::vector<Input> inputs, const DeviceBuffer<float>& output,
                     std::string output_name, Expected expected)
      : inputs_(std::move(inputs)),
        output_(output),
        output_name_(std::move(output_name)),
        expected_(std::move(expected)) {
    for (const Input& in : inputs_) fresh_.emplace_back(in.dataset->size());
  }

  FreshInputs steps() {
    return {[this](std::uint64_t seed) { refresh(seed); }, [this] { return check(); },
            [this] {
              for (const Input& in : inputs_) in.device->upload(*in.dataset);
            }};
  }

 private:
  void refresh(std::uint64_t seed) {
    rng_.seed(seed);
    for (std::size_t k = 0; k < inputs_.size(); ++k) {
      fill_uniform(fresh_[k], rng_());
      inputs_[k].device->upload(fresh_[k]);
    }
  }

  std::string check() {
    const std::vector<float> got = output_.download();
    return check_sampled_elements(got, rng_, output_name_, [this](std::size_t i) { return expected_(i, fresh_); });
  }

  std::vector<Input> inputs_;
  const DeviceBuffer<float>& output_;
  std::string output_name_;
  Expected expected_;
  Inputs fresh_;
  std::mt19937_64 rng_;
};

}  // namespace parlab::harness::gpu
