#include "race/block_shadow.hpp"

namespace parlab_sim::detail {

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
  const ShadowAccess now{pc, epoch_, warp_epochs_[lane / 32], static_cast<std::uint16_t>(lane),
                         atomic};
  RaceConflict found;
  const std::uintptr_t first = address & ~std::uintptr_t{3};
  const std::uintptr_t last = (address + (bytes == 0 ? 1 : bytes) - 1) & ~std::uintptr_t{3};
  for (std::uintptr_t word = first; word <= last; word += 4) {
    RaceConflict conflict = access_word(word, write, now);
    if (found.word == 0 && conflict.word != 0) found = conflict;
  }
  return found;
}

RaceConflict BlockShadow::access_word(std::uintptr_t word_address, bool write,
                                      const ShadowAccess& now) {
  Word& word = words_[word_address];
  RaceConflict conflict;
  auto conflicts_with = [&](const ShadowAccess& before, bool before_write) {
    if (conflict.word != 0 || ordered(before, now) || (before.atomic && now.atomic)) return;
    conflict = RaceConflict{word_address, before, before_write, now, write};
  };
  if (word.has_write) conflicts_with(word.write, true);
  if (write) {
    for (unsigned i = 0; i < word.read_count; ++i) conflicts_with(word.reads[i], false);
    word.write = now;
    word.has_write = true;
    word.read_count = 0;  // reads before this write are ordered before later accesses' check
    return conflict;
  }
  // Keep up to two reads of this epoch by different threads: a later write by a third
  // thread conflicts with the first, by one of them with the other.
  unsigned kept = 0;
  for (unsigned i = 0; i < word.read_count; ++i) {
    if (word.reads[i].epoch == now.epoch && word.reads[i].lane != now.lane) word.reads[kept++] = word.reads[i];
  }
  if (kept < 2) word.reads[kept++] = now;
  word.read_count = kept;
  return conflict;
}

}  // namespace parlab_sim::detail
