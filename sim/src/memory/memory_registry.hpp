#pragma once
// Every piece of memory a kernel may legally touch (device, managed, pinned, registered
// host memory, __device__ symbols) and recently freed device memory. Reads are
// lock-free, so the SIGSEGV handler can classify a fault address; writes take a lock.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>

namespace parlab_sim::detail {

enum class MemoryKind : std::uint8_t {
  device,           // cudaMalloc
  managed,          // cudaMallocManaged
  pinned_host,      // cudaMallocHost / cudaHostAlloc
  registered_host,  // cudaHostRegister
  symbol,           // cudaGetSymbolAddress
  freed,            // released by cudaFree / cudaFreeHost, kept inaccessible for a while
};

const char* memory_kind_name(MemoryKind kind);

struct MemoryRange {
  std::uintptr_t begin = 0;  // the bytes the program may use: [begin, end)
  std::uintptr_t end = 0;
  std::uintptr_t region_begin = 0;  // the whole mapping with its guard pages; 0 if
  std::uintptr_t region_end = 0;    // the memory is not mapped by the simulator
  MemoryKind kind = MemoryKind::device;
  MemoryKind freed_kind = MemoryKind::device;  // what a freed range used to be

  bool covers(std::uintptr_t address) const {
    return region_begin != 0 ? (address >= region_begin && address < region_end)
                             : (address >= begin && address <= end);
  }
};

class MemoryRegistry {
 public:
  static MemoryRegistry& instance();

  bool add(const MemoryRange& range);  // false when the table is full
  // The range whose mapping (or, unmapped, [begin, end]) holds `address`. Lock-free.
  bool find(std::uintptr_t address, MemoryRange& out) const;
  // Removes and returns the live range starting at `begin` whose kind is `kind`.
  bool take(std::uintptr_t begin, MemoryKind kind, MemoryRange& out);

  MemoryRegistry();
  // Calls `visit(range)` for every live range under the lock.
  template <class Visit>
  void for_each(Visit visit);

 private:
  static constexpr std::size_t kCapacity = 1 << 16;

  struct Slot {
    std::atomic<std::uint32_t> version{0};  // odd while being written
    std::atomic<bool> live{false};
    std::atomic<std::uintptr_t> begin{0}, end{0}, region_begin{0}, region_end{0};
    std::atomic<std::uint8_t> kind{0}, freed_kind{0};
  };

  void write(Slot& slot, const MemoryRange& range, bool live);
  static MemoryRange read(const Slot& slot);

  std::mutex mutex_;
  std::atomic<std::size_t> used_{0};  // slots [0, used_) may be live
  // kCapacity slots (3 MiB) in pages mapped but never touched until used: zeroing them
  // up front cost every run of every program ~10 ms of page faults (the first
  // cudaMalloc), though most use a handful. A slot is constructed when `used_` first
  // reaches it, under the lock, before readers may see it.
  Slot* slots_;
};

template <class Visit>
void MemoryRegistry::for_each(Visit visit) {
  std::lock_guard lock(mutex_);
  const std::size_t used = used_.load();
  for (std::size_t i = 0; i < used; ++i) {
    if (slots_[i].live.load()) visit(read(slots_[i]));
  }
}

}  // namespace parlab_sim::detail
