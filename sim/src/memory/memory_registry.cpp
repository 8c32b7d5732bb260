#include "memory/memory_registry.hpp"

#include <sys/mman.h>

#include <new>

namespace parlab_sim::detail {

const char* memory_kind_name(MemoryKind kind) {
  switch (kind) {
    case MemoryKind::device: return "device allocation (cudaMalloc)";
    case MemoryKind::managed: return "managed allocation (cudaMallocManaged)";
    case MemoryKind::pinned_host: return "pinned host allocation (cudaMallocHost)";
    case MemoryKind::registered_host: return "registered host memory (cudaHostRegister)";
    case MemoryKind::symbol: return "__device__ variable";
    case MemoryKind::freed: return "freed allocation";
  }
  return "allocation";
}

MemoryRegistry::MemoryRegistry() {
  void* pages = mmap(nullptr, kCapacity * sizeof(Slot), PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (pages == MAP_FAILED) throw std::bad_alloc();
  slots_ = static_cast<Slot*>(pages);
}

MemoryRegistry& MemoryRegistry::instance() {
  static MemoryRegistry* registry = new MemoryRegistry;  // used until exit, by signal handlers too
  return *registry;
}

void MemoryRegistry::write(Slot& slot, const MemoryRange& range, bool live) {
  slot.version.fetch_add(1, std::memory_order_acq_rel);  // odd: being written
  slot.begin.store(range.begin, std::memory_order_relaxed);
  slot.end.store(range.end, std::memory_order_relaxed);
  slot.region_begin.store(range.region_begin, std::memory_order_relaxed);
  slot.region_end.store(range.region_end, std::memory_order_relaxed);
  slot.kind.store(static_cast<std::uint8_t>(range.kind), std::memory_order_relaxed);
  slot.freed_kind.store(static_cast<std::uint8_t>(range.freed_kind), std::memory_order_relaxed);
  slot.live.store(live, std::memory_order_relaxed);
  slot.version.fetch_add(1, std::memory_order_release);  // even: stable
}

MemoryRange MemoryRegistry::read(const Slot& slot) {
  MemoryRange range;
  range.begin = slot.begin.load(std::memory_order_relaxed);
  range.end = slot.end.load(std::memory_order_relaxed);
  range.region_begin = slot.region_begin.load(std::memory_order_relaxed);
  range.region_end = slot.region_end.load(std::memory_order_relaxed);
  range.kind = static_cast<MemoryKind>(slot.kind.load(std::memory_order_relaxed));
  range.freed_kind = static_cast<MemoryKind>(slot.freed_kind.load(std::memory_order_relaxed));
  return range;
}

bool MemoryRegistry::add(const MemoryRange& range) {
  std::lock_guard lock(mutex_);
  const std::size_t used = used_.load();
  for (std::size_t i = 0; i < used; ++i) {
    if (!slots_[i].live.load()) {
      write(slots_[i], range, true);
      return true;
    }
  }
  if (used == kCapacity) return false;
  new (&slots_[used]) Slot;
  write(slots_[used], range, true);
  used_.store(used + 1, std::memory_order_release);
  return true;
}

bool MemoryRegistry::find(std::uintptr_t address, MemoryRange& out) const {
  const std::size_t used = used_.load(std::memory_order_acquire);
  for (std::size_t i = 0; i < used; ++i) {
    const Slot& slot = slots_[i];
    for (int attempt = 0; attempt < 100; ++attempt) {
      const std::uint32_t before = slot.version.load(std::memory_order_acquire);
      if (before % 2 != 0) continue;  // being written: read again
      const bool live = slot.live.load(std::memory_order_relaxed);
      const MemoryRange range = read(slot);
      std::atomic_thread_fence(std::memory_order_acquire);
      if (slot.version.load(std::memory_order_relaxed) != before) continue;
      if (live && range.covers(address)) {
        out = range;
        return true;
      }
      break;
    }
  }
  return false;
}

bool MemoryRegistry::take(std::uintptr_t begin, MemoryKind kind, MemoryRange& out) {
  std::lock_guard lock(mutex_);
  const std::size_t used = used_.load();
  for (std::size_t i = 0; i < used; ++i) {
    Slot& slot = slots_[i];
    if (!slot.live.load()) continue;
    const MemoryRange range = read(slot);
    if (range.begin == begin && range.kind == kind) {
      write(slot, range, false);
      out = range;
      return true;
    }
  }
  return false;
}

}  // namespace parlab_sim::detail
