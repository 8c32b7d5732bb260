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
      for (Slot& slot : slots_) slot.generation = 0;
      generation_ = 1;
    }
    values_.clear();
  }

  // The value at `key`, value-initialised when new. The reference holds until the
  // next insertion.
  Value& operator[](std::uintptr_t key) {
    bool added = false;
    return find_or_add(key, added);
  }

  // The same; `added` says whether the key was new.
  Value& find_or_add(std::uintptr_t key, bool& added) {
    if ((values_.size() + 1) * 2 > slots_.size()) grow();
    std::size_t i = slot_of(key);
    while (slots_[i].generation == generation_) {
      if (slots_[i].key == key) {
        added = false;
        return values_[slots_[i].index];
      }
      i = (i + 1) & mask_;
    }
    slots_[i] = {key, generation_, static_cast<std::uint32_t>(values_.size())};
    added = true;
    return values_.emplace_back();
  }

  // Calls `visit(key, value)` for every key since the last clear, in no particular order.
  template <class Visit>
  void for_each(Visit visit) const {
    for (const Slot& slot : slots_) {
      if (slot.generation == generation_) visit(slot.key, values_[slot.index]);
    }
  }

  const Value* find(std::uintptr_t key) const {
    if (slots_.empty()) return nullptr;
    for (std::size_t i = slot_of(key); slots_[i].generation == generation_; i = (i + 1) & mask_) {
      if (slots_[i].key == key) return &values_[slots_[i].index];
    }
    return nullptr;
  }

 private:
  // The 16 words of a 64-byte line of memory go to 16 neighbouring slots (one cache line
  // of the table's for 4 of them), and the lines are spread by a multiplicative hash: a
  // kernel walking an array probes the table in order instead of at random (a miss per
  // access was most of a checked run's time), while a strided walk (a matrix's column)
  // still lands on spread slots, one line apart each.
  std::size_t slot_of(std::uintptr_t key) const {
    const std::uintptr_t line = key >> 6;
    const std::uintptr_t spread = (line * 0x9E3779B97F4A7C15ull) >> 20;
    return static_cast<std::size_t>((spread << 4) | ((key >> 2) & 15)) & mask_;
  }

  // Twice the slots; the values stay where they are, only the keys are placed again.
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    const std::size_t size = old.empty() ? 1024 : old.size() * 2;
    slots_.assign(size, Slot{});
    mask_ = size - 1;
    const std::uint32_t live = generation_;
    generation_ = 1;
    for (const Slot& slot : old) {
      if (slot.generation != live) continue;
      std::size_t i = slot_of(slot.key);
      while (slots_[i].generation == generation_) i = (i + 1) & mask_;
      slots_[i] = {slot.key, generation_, slot.index};
    }
  }

  // A slot's three fields side by side: a probe reads one cache line, not three.
  struct Slot {
    std::uintptr_t key = 0;
    std::uint32_t generation = 0;  // current when equal to the table's
    std::uint32_t index = 0;       // the slot's value in values_
  };
  std::vector<Slot> slots_;
  RemappedArray<Value> values_;  // grows without copying (memory/remapped_array)
  std::size_t mask_ = 0;
  std::uint32_t generation_ = 1;
};

}  // namespace parlab_sim::detail
