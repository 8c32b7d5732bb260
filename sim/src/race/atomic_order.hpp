#pragma once
// Happens-before between blocks through fences and atomics, as the CUDA memory model
// orders them (docs/simulation.md, "Race check"): a block's writes before a
// __threadfence() followed by an atomic on an address (a release) are ordered before
// everything a block does after its own atomic on that address came later in the
// address's order (an acquire: the ticket of the last-block pattern). A release/acquire
// model keyed by the atomic's address; a block's releases are numbered (its epoch) so
// that its writes after a release stay unordered.
#include <array>
#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace parlab_sim::detail {

// One running block's side: its releases and what it has acquired.
class BlockOrder {
 public:
  void reset() {
    epoch_ = 0;
    fence_pending_ = false;
    acquired_.clear();
  }
  void on_fence() { fence_pending_ = true; }
  // Releases made so far: a write records it, a later release makes the write visible.
  std::uint32_t epoch() const { return epoch_; }
  // Whether block `writer`'s write made at its epoch `write_epoch` is ordered before
  // everything this block does from now on.
  bool ordered_after(std::uint64_t writer, std::uint32_t write_epoch) const {
    const auto it = acquired_.find(writer);
    return it != acquired_.end() && it->second > write_epoch;
  }

 private:
  friend class AtomicOrder;
  std::uint32_t epoch_ = 0;
  bool fence_pending_ = false;
  std::unordered_map<std::uint64_t, std::uint32_t> acquired_;  // block -> its releases seen
};

// The launch's side: for each address atomics released at, the blocks that released
// there and their epochs. Shared by the workers; sharded, each shard behind its lock.
class AtomicOrder {
 public:
  // A launch begins: forget the previous launch's releases.
  void clear();
  // Performs `operation` (the atomic read-modify-write on `address` by block `block`)
  // under the address's lock: first acquires every release made there before, then
  // releases the block's writes when it fenced since its last release.
  template <class Operation>
  auto perform(std::uintptr_t address, std::uint64_t block, BlockOrder& order, Operation operation) {
    Shard& shard = shards_[(address >> 2) % kShards];
    std::lock_guard lock(shard.mutex);
    acquire(shard, address, order);
    auto result = operation();
    if (order.fence_pending_) release(shard, address, block, order);
    return result;
  }

 private:
  static constexpr unsigned kShards = 64;
  using Releases = std::unordered_map<std::uint64_t, std::uint32_t>;  // block -> epoch
  struct Shard {
    std::mutex mutex;
    std::unordered_map<std::uintptr_t, Releases> addresses;
  };
  static void acquire(Shard& shard, std::uintptr_t address, BlockOrder& order);
  static void release(Shard& shard, std::uintptr_t address, std::uint64_t block, BlockOrder& order);
  std::array<Shard, kShards> shards_;
};

AtomicOrder& atomic_order();

}  // namespace parlab_sim::detail
