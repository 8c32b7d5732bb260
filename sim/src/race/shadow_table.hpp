#pragma once
// The race check's per-word records of one block, by word address: an open-addressing
// table that a block's reset empties in O(1) (a generation number per slot) and that
// never allocates once grown. A node-based map cost a malloc and a free per word per
// block, and was most of a checked run's time.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace parlab_sim::detail {

template <typename Value>
class ShadowTable {
 public:
  // Empties the table; its slots stay allocated for the next block.
  void clear() {
    if (++generation_ == 0) {  // wrapped: no stale slot may look current
      generations_.assign(generations_.size(), 0);
      generation_ = 1;
    }
    used_ = 0;
  }

  // The value at `key`, value-initialised when new.
  Value& operator[](std::uintptr_t key) {
    if ((used_ + 1) * 2 > keys_.size()) grow();
    std::size_t i = slot_of(key);
    while (generations_[i] == generation_) {
      if (keys_[i] == key) return values_[i];
      i = (i + 1) & mask_;
    }
    generations_[i] = generation_;
    keys_[i] = key;
    values_[i] = Value{};
    ++used_;
    return values_[i];
  }

  const Value* find(std::uintptr_t key) const {
    if (keys_.empty()) return nullptr;
    for (std::size_t i = slot_of(key); generations_[i] == generation_; i = (i + 1) & mask_) {
      if (keys_[i] == key) return &values_[i];
    }
    return nullptr;
  }

 private:
  std::size_t slot_of(std::uintptr_t key) const {
    return static_cast<std::size_t>(((key >> 2) * 0x9E3779B97F4A7C15ull) >> 20) & mask_;
  }

  void grow() {
    std::vector<std::uintptr_t> keys = std::move(keys_);
    std::vector<std::uint32_t> generations = std::move(generations_);
    std::vector<Value> values = std::move(values_);
    const std::size_t size = keys.empty() ? 1024 : keys.size() * 2;
    keys_.assign(size, 0);
    generations_.assign(size, 0);
    values_.assign(size, Value{});
    mask_ = size - 1;
    const std::uint32_t live = generation_;
    generation_ = 1;
    used_ = 0;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (generations[i] == live) (*this)[keys[i]] = values[i];
    }
  }

  std::vector<std::uintptr_t> keys_;
  std::vector<std::uint32_t> generations_;
  std::vector<Value> values_;
  std::size_t mask_ = 0;
  std::size_t used_ = 0;
  std::uint32_t generation_ = 1;
};

}  // namespace parlab_sim::detail
