#include "exec/shuffled_order.hpp"

namespace parlab_sim::detail {

std::uint64_t mix_seed(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

ShuffledOrder::ShuffledOrder(std::uint64_t seed, std::uint64_t count) : count_(count) {
  if (count < 2) return;
  unsigned bits = 1;
  while (bits < 64 && (std::uint64_t{1} << bits) < count) ++bits;
  half_bits_ = (bits + 1) / 2;
  std::uint64_t key = seed;
  for (std::uint64_t& k : keys_) k = key = mix_seed(key);
}

std::uint64_t ShuffledOrder::permute(std::uint64_t x) const {
  const std::uint64_t mask = (std::uint64_t{1} << half_bits_) - 1;
  std::uint64_t left = x >> half_bits_;
  std::uint64_t right = x & mask;
  for (const std::uint64_t k : keys_) {
    const std::uint64_t next = left ^ (mix_seed(right ^ k) & mask);
    left = right;
    right = next;
  }
  return (left << half_bits_) | right;
}

std::uint64_t ShuffledOrder::at(std::uint64_t position) const {
  if (half_bits_ == 0) return position;
  // The network permutes 0..4^half_bits-1 (at most 4 x count): walking the cycle from
  // `position` until it lands below count gives a permutation of 0..count-1.
  std::uint64_t x = permute(position);
  while (x >= count_) x = permute(x);
  return x;
}

}  // namespace parlab_sim::detail
