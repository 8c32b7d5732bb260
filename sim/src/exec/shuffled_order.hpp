#pragma once
// A seeded random permutation of 0..count-1 computed one position at a time, with no
// table (a grid may have billions of blocks): a 4-round Feistel network on the smallest
// even number of bits covering count, cycle-walked back into range. The simulator starts
// blocks, and each block's threads, in such an order (docs/simulation.md, "Thread
// order"), so no run of a submission is the "usual order" run a kernel could rely on.
#include <cstdint>

namespace parlab_sim::detail {

// splitmix64's finalizer: a well-mixed 64-bit value of `x` (seeds for launches, blocks).
std::uint64_t mix_seed(std::uint64_t x);

class ShuffledOrder {
 public:
  ShuffledOrder() = default;  // the identity (no seed: the usual order)
  ShuffledOrder(std::uint64_t seed, std::uint64_t count);

  // The element at `position` (< count).
  std::uint64_t at(std::uint64_t position) const;

 private:
  std::uint64_t permute(std::uint64_t x) const;

  std::uint64_t count_ = 0;
  std::uint64_t keys_[4] = {};
  unsigned half_bits_ = 0;  // 0: the identity
};

}  // namespace parlab_sim::detail
