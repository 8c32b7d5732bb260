#pragma once
// The race check's per-word records of one block, by word address: an open-addressing
// table of keys that a block's reset empties in O(1) (a generation number per slot) and
// that never allocates once grown. A node-based map cost a malloc and a free per word per
// block, and was most of a checked run's time. The values (a word's kept accesses, about
// 200 bytes) are stored densely in the order they were added and the slots hold their
// index: slots for every word of a grid-stride block, with values in each, were tens of
// megabytes per run, faulted in page by page (a third of a lab04 run's time in the kernel).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "memory/remapped_array.hpp"

namespace parlab_sim::detail {

template <typename Value>
class ShadowTable {
 public:
  // Empties the table; its slots and values stay allocated for the next block.
  void clear() {
    if (++generation_ == 0) {  // wrapped: no stale slot may look current
      generations_.assign(generations_.size(), 0);
      generation_ = 1;
    }
    values_.clear();
  }

  // The value at `key`, value-initialised when new. The reference holds until the
  // next insertion.
  Value& operator[](std::uintptr_t key) {
    if ((values_.size() + 1) * 2 > keys_.size()) grow();
    std::size_t i = slot_of(key);
    while (generations_[i] == generation_) {
      if (keys_[i] == key) return values_[indices_[i]];
      i = (i + 1) & mask_;
    }
    claim(i, key, static_cast<std::uint32_t>(values_.size()));
    return values_.emplace_back();
  }

  const Value* find(std::uintptr_t key) const {
    if (keys_.empty()) return nullptr;
    for (std::size_t i = slot_of(key); generations_[i] == generation_; i = (i + 1) & mask_) {
      if (keys_[i] == key) return &values_[indices_[i]];
    }
    return nullptr;
  }

 private:
  std::size_t slot_of(std::uintptr_t key) const {
    return static_cast<std::size_t>(((key >> 2) * 0x9E3779B97F4A7C15ull) >> 20) & mask_;
  }

  void claim(std::size_t slot, std::uintptr_t key, std::uint32_t index) {
    generations_[slot] = generation_;
    keys_[slot] = key;
    indices_[slot] = index;
  }

  // Twice the slots; the values stay where they are, only the keys are placed again.
  void grow() {
    std::vector<std::uintptr_t> keys = std::move(keys_);
    std::vector<std::uint32_t> generations = std::move(generations_);
    std::vector<std::uint32_t> indices = std::move(indices_);
    const std::size_t size = keys.empty() ? 1024 : keys.size() * 2;
    keys_.assign(size, 0);
    generations_.assign(size, 0);
    indices_.assign(size, 0);
    mask_ = size - 1;
    const std::uint32_t live = generation_;
    generation_ = 1;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (generations[i] != live) continue;
      std::size_t slot = slot_of(keys[i]);
      while (generations_[slot] == generation_) slot = (slot + 1) & mask_;
      claim(slot, keys[i], indices[i]);
    }
  }

  std::vector<std::uintptr_t> keys_;
  std::vector<std::uint32_t> generations_;
  std::vector<std::uint32_t> indices_;  // each slot's value in values_
  RemappedArray<Value> values_;  // grows without copying (memory/remapped_array)
  std::size_t mask_ = 0;
  std::uint32_t generation_ = 1;
};

}  // namespace parlab_sim::detail
