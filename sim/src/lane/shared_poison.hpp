#pragma once
// The bytes every block's shared memory starts with. A NaN as a float (0x7FF5A5A5) and
// as a double (0x7FF5A5A57FF5A5A5), and not the all-ones poison the drivers put in
// outputs (and cudaMalloc in device memory): a NaN that reaches an output from shared
// memory never stored to is then told from an output element never written. The
// grader recognises the float word (grader/src/compare/mismatch_pattern.cpp).
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace parlab_sim::detail {

inline constexpr std::uint32_t kSharedPoisonWord = 0x7FF5A5A5u;

// Fills [start, start + bytes) so that every 4-byte aligned word reads kSharedPoisonWord
// (a float or a double at its natural alignment reads the NaN).
inline void fill_shared_poison(void* start, std::size_t bytes) {
  auto* p = static_cast<unsigned char*>(start);
  unsigned char word[4];
  std::memcpy(word, &kSharedPoisonWord, sizeof word);
  std::size_t i = 0;
  // Byte by byte up to the first aligned word, then whole words (as fast as memset).
  for (; i < bytes && reinterpret_cast<std::uintptr_t>(p + i) % 4 != 0; ++i) {
    p[i] = word[reinterpret_cast<std::uintptr_t>(p + i) % 4];
  }
  for (; i + 4 <= bytes; i += 4) std::memcpy(p + i, word, 4);
  for (; i < bytes; ++i) p[i] = word[reinterpret_cast<std::uintptr_t>(p + i) % 4];
}

}  // namespace parlab_sim::detail
