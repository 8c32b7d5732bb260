#include "race/atomic_order.hpp"

#include <algorithm>

namespace parlab_sim::detail {

AtomicOrder& atomic_order() {
  static AtomicOrder order;
  return order;
}

void AtomicOrder::clear() {
  for (Shard& shard : shards_) {
    std::lock_guard lock(shard.mutex);
    shard.addresses.clear();
  }
}

void AtomicOrder::acquire(Shard& shard, std::uintptr_t address, BlockOrder& order) {
  const auto it = shard.addresses.find(address);
  if (it == shard.addresses.end()) return;
  for (const auto& [block, epoch] : it->second) {
    std::uint32_t& seen = order.acquired_[block];
    seen = std::max(seen, epoch);
  }
}

void AtomicOrder::release(Shard& shard, std::uintptr_t address, std::uint64_t block,
                          BlockOrder& order) {
  order.fence_pending_ = false;
  ++order.epoch_;
  shard.addresses[address][block] = order.epoch_;
}

}  // namespace parlab_sim::detail
