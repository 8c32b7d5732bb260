#include "race/grid_shadow.hpp"

#include <algorithm>
#include <cstring>

namespace parlab_sim::detail {

GridShadow& grid_shadow() {
  static GridShadow shadow;
  return shadow;
}

void GridShadow::clear() {
  for (Shard& shard : shards_) {
    std::lock_guard lock(shard.mutex);
    shard.words.clear();
  }
}

GridConflict GridShadow::write(std::uintptr_t address, std::size_t bytes, const GridWrite& now,
                               const BlockOrder& order) {
  GridConflict found;
  const std::uintptr_t end = address + (bytes == 0 ? 1 : bytes);
  for (std::uintptr_t word = address & ~std::uintptr_t{3}; word < end; word += 4) {
    GridWrite here = now;
    const std::uintptr_t from = std::max(word, address) - word;
    const std::uintptr_t to = std::min(word + 4, end) - word;
    here.bytes = static_cast<std::uint8_t>(((1u << to) - 1u) & ~((1u << from) - 1u));
    Shard& shard = shards_[shard_of(word)];
    std::lock_guard lock(shard.mutex);
    bool added = false;
    GridWrite& before = shard.words.find_or_add(word, added);
    if (added) {
      before = here;
      // Every store to the word passes here first, so under the lock it still holds its
      // value from before the launch (the caller's own store comes after).
      std::memcpy(&before.old_word, reinterpret_cast<const void*>(word), sizeof(std::uint32_t));
      continue;
    }
    const unsigned common = before.bytes & here.bytes;
    if (found.address == 0 && common != 0 && before.block != here.block &&
        before.generation == here.generation && (before.read_first || here.read_first) &&
        !order.ordered_after(before.block, before.epoch)) {
      found = GridConflict{word + static_cast<std::uintptr_t>(__builtin_ctz(common)), before, here};
    }
    const std::uint32_t old_word = before.old_word;
    before = here;
    before.old_word = old_word;
  }
  return found;
}

}  // namespace parlab_sim::detail
