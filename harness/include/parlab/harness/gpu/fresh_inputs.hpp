#pragma once
// Fresh input content for every timed repetition of a GPU call, so a result kept from an
// earlier call (cached by pointer or by content, computed once and replayed, or left
// from the warm-up) cannot stand in for the work being timed. The driver supplies three
// steps, all untimed: `refresh` writes new content drawn from a seed the submission is
// not given; `check` verifies the call's output against that content (a sample of
// elements recomputed on the host) and says what differed, or returns "" when it fits;
// `restore` puts the dataset's own content back for a last, untimed call whose output
// the grader compares (docs/gpu.md, "Timing on the GPU").
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>

namespace parlab::harness::gpu {

struct FreshInputs {
  std::function<void(std::uint64_t seed)> refresh;
  std::function<std::string()> check;
  std::function<void()> restore;
};

// A seed from the kernel's random source, drawn when the repetition starts: nothing in
// the dataset, the command line or an earlier call predicts it.
inline std::uint64_t unpredictable_seed() {
  std::random_device source;
  return (static_cast<std::uint64_t>(source()) << 32) ^ source();
}

// xorshift64*: a few nanoseconds a draw, for inputs of up to 2^26 elements per repetition.
class XorShift64Star {
 public:
  explicit XorShift64Star(std::uint64_t seed) : state_(seed | 1) {}  // the state must not be 0
  std::uint64_t next() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 0x2545F4914F6CDD1DULL;
  }

 private:
  std::uint64_t state_;
};

// Fills `values` with floats spread over [-1, 1) from `seed`: xorshift64* and the top 23
// bits as a mantissa. 5 ns an element against 52 ns for std::uniform_real_distribution
// over mt19937_64, side by side on a loaded 2-core VM (docs/performance.md): the slow one
// cost a second a repetition for a large matrix, the fast one a tenth.
inline void fill_uniform(std::span<float> values, std::uint64_t seed) {
  XorShift64Star bits(seed);
  for (float& v : values) {
    const std::uint32_t mantissa = 0x3F800000u | static_cast<std::uint32_t>(bits.next() >> 41);
    float one_to_two = 0;
    std::memcpy(&one_to_two, &mantissa, sizeof mantissa);  // [1, 2)
    v = 2.0f * one_to_two - 3.0f;
  }
}

// The check both element-wise forms make (sampled_fresh_inputs.hpp for device outputs,
// host_sampled_fresh_inputs.hpp for host ones): 64 elements of `output` chosen after the
// call, each within 1e-4 (1 + |expected|) of `expected(index)` (computed in double: float
// rounding of a few operations stays far inside it, a result for other inputs in
// [-1, 1] is off by far more). Returns "" or what differed.
template <class Expected>
std::string check_sampled_elements(std::span<const float> output, std::mt19937_64& rng,
                                   const std::string& output_name, Expected&& expected) {
  constexpr int kSampledElements = 64;
  if (output.empty()) return "";
  std::uniform_int_distribution<std::size_t> pick(0, output.size() - 1);
  for (int s = 0; s < kSampledElements; ++s) {
    const std::size_t i = pick(rng);
    const double want = expected(i);
    if (!(std::fabs(output[i] - want) <= 1e-4 * (1 + std::fabs(want)))) {
      return output_name + " at index " + std::to_string(i) + " is " + std::to_string(output[i]) +
             " where these inputs give " + std::to_string(want);
    }
  }
  return "";
}

// What a failed check becomes: the student's call returned an output that does not
// belong to the input it was given.
class StaleResultError : public std::runtime_error {
 public:
  StaleResultError(const char* function, int repetition, const std::string& what_differed)
      : std::runtime_error(std::string(function) + " returned a result that does not fit its input on timed repetition " +
                           std::to_string(repetition + 1) + " (the grader gives every timed call new input content: " +
                           what_differed + "). Compute the result in every call; a result kept from an earlier call, "
                           "or work skipped after the first, is not a faster kernel") {}
};

}  // namespace parlab::harness::gpu
