#pragma once
// The race check across the blocks of one launch (docs/simulation.md, "Race check"):
// for every 4-byte word of device memory a launch writes with plain stores, the last
// write (block, thread, bytes, code address, grid-sync generation). A plain write by
// one block to bytes another block wrote in the same launch and between the same grid
// syncs is a race between blocks when one of the two blocks read the word first: a
// read-modify-write (a running maximum or sum kept without an atomic), whose result on
// a GPU depends on which block got there last, unless a fence and an atomic ordered the
// earlier write before the later block (race/atomic_order.hpp). Blind writes of a value (a flag set by
// every block) are left alone, and so is everything ordered by atomics (the
// threadfence-reduction pattern: each block writes its own partial, the last one reads
// them). Shared by the workers: sharded, each shard behind its own lock.
#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>

#include "race/atomic_order.hpp"
#include "race/shadow_table.hpp"

namespace parlab_sim::detail {

struct GridWrite {
  std::uint64_t block = 0;       // linear block index
  std::uint64_t generation = 0;  // grid syncs completed before it
  const void* pc = nullptr;
  std::uint32_t lane = 0;        // linear thread index in its block
  std::uint32_t epoch = 0;       // releases its block had made before it (atomic_order.hpp)
  std::uint8_t bytes = 0;        // which bytes of the word: bit i is byte i
  bool read_first = false;       // its block had read the word before (read-modify-write)
  // The word's value before the launch first wrote it (kept across later writes): a
  // kernel's writes to managed memory reach the host only at a synchronization
  // (runtime/managed_kernel_writes.hpp).
  std::uint32_t old_word = 0;
};

struct GridConflict {
  std::uintptr_t address = 0;  // 0: none; else the first byte both wrote
  GridWrite earlier;
  GridWrite later;
};

class GridShadow {
 public:
  // A launch begins: forget the previous launch's writes.
  void clear();
  // Records a plain write of [address, address + bytes) by `now` (its `bytes` field is
  // filled per word); returns the first conflict with another block's write that
  // `order` (the writing block's acquisitions) does not place before it.
  GridConflict write(std::uintptr_t address, std::size_t bytes, const GridWrite& now,
                     const BlockOrder& order);
  // Calls `visit(word_address, old_word)` for every word this launch wrote, under each
  // shard's lock, in no particular order.
  template <class Visit>
  void for_each_word(Visit visit) {
    for (Shard& shard : shards_) {
      std::lock_guard lock(shard.mutex);
      shard.words.for_each([&](std::uintptr_t word, const GridWrite& write) { visit(word, write.old_word); });
    }
  }

 private:
  static constexpr unsigned kShards = 64;
  // A 64-byte line of memory stays in one shard (a block writes its elements side by
  // side), and a shard's table is the block shadow's: no allocation per word written,
  // and a launch's clear forgets every word at once (a node map's malloc, free and
  // rehash per word were most of the check's cost in lab03's kernels).
  static std::size_t shard_of(std::uintptr_t word) { return (word >> 6) % kShards; }
  struct Shard {
    std::mutex mutex;
    ShadowTable<GridWrite> words;
  };
  std::array<Shard, kShards> shards_;
};

GridShadow& grid_shadow();

}  // namespace parlab_sim::detail
