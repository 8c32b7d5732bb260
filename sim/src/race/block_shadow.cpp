#include "race/block_shadow.hpp"

#include <algorithm>

namespace parlab_sim::detail {

namespace {

// Bit i set for each byte i of the word at `word` that [address, end) covers.
unsigned byte_mask(std::uintptr_t word, std::uintptr_t address, std::uintptr_t end) {
  const std::uintptr_t from = std::max(word, address) - word;
  const std::uintptr_t to = std::min(word + 4, end) - word;
  return ((1u << to) - 1u) & ~((1u << from) - 1u);
}

}  // namespace

void BlockShadow::reset(unsigned warps) {
  epoch_ = 1;
  warp_epochs_.assign(warps, 0);
  words_.clear();
}

// a happened before b, or cannot overlap with it: same thread, different epoch, or
// lanes of one warp separated by a warp collective.
bool BlockShadow::ordered(const ShadowAccess& a, const ShadowAccess& b) const {
  if (a.lane == b.lane || a.epoch != b.epoch) return true;
  return a.lane / 32 == b.lane / 32 && a.warp_epoch != b.warp_epoch;
}

RaceConflict BlockShadow::access(std::uintptr_t address, std::size_t bytes, bool write,
                                 bool atomic, unsigned lane, const void* pc) {
  const ShadowAccess now(pc, epoch_, warp_epochs_[lane / 32], lane, atomic);
  const std::uintptr_t end = address + (bytes == 0 ? 1 : bytes);
  const std::uintptr_t first_word = address & ~std::uintptr_t{3};
  if (address == first_word && end - address == 4) {  // one whole word: most accesses
    ShadowAccess here = now;
    here.bytes = 0xF;
    return access_word(first_word, write, here);
  }
  RaceConflict found;
  for (std::uintptr_t word = first_word; word < end; word += 4) {
    ShadowAccess here = now;
    here.bytes = byte_mask(word, address, end) & 0xF;
    RaceConflict conflict = access_word(word, write, here);
    if (found.word == 0 && conflict.word != 0) found = conflict;
  }
  return found;
}

bool BlockShadow::read_before_write(std::uintptr_t address, std::size_t bytes) const {
  const std::uintptr_t end = address + (bytes == 0 ? 1 : bytes);
  for (std::uintptr_t word = address & ~std::uintptr_t{3}; word < end; word += 4) {
    const Word* it = words_.find(word);
    if (it == nullptr) continue;
    const unsigned mask = byte_mask(word, address, end);
    for (unsigned i = 0; i < it->read_count; ++i) {
      if ((it->reads[i].bytes & mask) != 0) return true;
    }
  }
  return false;
}

void BlockShadow::keep(ShadowAccess* kept, unsigned& count, const ShadowAccess& now,
                       bool by_others_too) {
  unsigned left = 0;
  for (unsigned i = 0; i < count; ++i) {
    const ShadowAccess& old = kept[i];
    const bool covered = (old.bytes & ~now.bytes) == 0;
    const bool stale = old.epoch != now.epoch || (covered && (by_others_too || old.lane == now.lane));
    if (!stale) kept[left++] = old;
  }
  if (left == kKept) {  // full: forget the oldest
    for (unsigned i = 1; i < kKept; ++i) kept[i - 1] = kept[i];
    --left;
  }
  kept[left++] = now;
  count = left;
}

RaceConflict BlockShadow::access_word(std::uintptr_t word_address, bool write,
                                      const ShadowAccess& now) {
  Word& word = words_[word_address];
  RaceConflict conflict;
  auto conflicts_with = [&](const ShadowAccess& before, bool before_write) {
    const unsigned common = before.bytes & now.bytes;
    if (conflict.word != 0 || common == 0 || ordered(before, now) || (before.atomic && now.atomic)) {
      return;
    }
    conflict = RaceConflict{word_address,
                            word_address + static_cast<std::uintptr_t>(__builtin_ctz(common)),
                            before, before_write, now, write};
  };
  for (unsigned i = 0; i < word.write_count; ++i) conflicts_with(word.writes[i], true);
  if (write) {
    for (unsigned i = 0; i < word.read_count; ++i) conflicts_with(word.reads[i], false);
    // A write covering earlier writes replaces them (they were checked against it, and
    // a later access conflicting with them conflicts with it); reads it covers too.
    keep(word.writes, word.write_count, now, true);
    unsigned left = 0;
    for (unsigned i = 0; i < word.read_count; ++i) {
      if ((word.reads[i].bytes & ~now.bytes) != 0 && word.reads[i].epoch == now.epoch) {
        word.reads[left++] = word.reads[i];
      }
    }
    word.read_count = left;
    return conflict;
  }
  // Reads by different threads are kept side by side: a later write by a third thread
  // conflicts with the first, by one of them with the other.
  keep(word.reads, word.read_count, now, false);
  return conflict;
}

}  // namespace parlab_sim::detail
