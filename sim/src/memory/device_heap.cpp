#include "memory/device_heap.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace parlab_sim::detail {
namespace {

constexpr std::size_t kAlignment = 16;  // what CUDA's in-kernel malloc guarantees
// Addresses reserved per byte of the heap's size: what a launch can allocate and free
// before the addresses freed in it come back (see the header). At most kMaxSlackBytes
// beyond the heap's size: a run's address space may be limited (RLIMIT_AS).
constexpr std::size_t kAddressesPerHeapByte = 16;
constexpr std::size_t kMaxSlackBytes = std::size_t{1} << 30;

// The arena and its bookkeeping: free stretches by offset (neighbours merged when freed)
// and the blocks handed out. The extent is atomic for in_device_heap's readers.
struct DeviceHeap {
  std::mutex mutex;
  std::atomic<std::uintptr_t> begin{0};
  std::atomic<std::size_t> bytes{0};
  std::size_t heap_bytes = 0;  // the size: at most this many bytes not freed
  std::size_t live_bytes = 0;
  std::map<std::size_t, std::size_t> free_stretches;    // offset -> length
  std::unordered_map<std::size_t, std::size_t> in_use;  // offset -> length
  std::vector<std::pair<std::size_t, std::size_t>> freed_in_launch;
};

// Never destroyed: a kernel may free at exit, after static objects are gone.
DeviceHeap& heap() {
  static DeviceHeap* const instance = new DeviceHeap;
  return *instance;
}

// Makes the arena (under the mutex); false when the memory cannot be had.
bool make_arena(DeviceHeap& h, std::size_t heap_bytes) {
  h.heap_bytes = heap_bytes;
  const std::size_t size = (heap_bytes + kAlignment - 1) / kAlignment * kAlignment;
  if (size == 0 || size > (std::size_t{1} << 40)) return false;
  const std::size_t bytes = size + std::min(size * (kAddressesPerHeapByte - 1), kMaxSlackBytes);
  void* arena = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (arena == MAP_FAILED) return false;
  h.free_stretches[0] = bytes;
  h.bytes = bytes;
  h.begin = reinterpret_cast<std::uintptr_t>(arena);
  return true;
}

// Returns a stretch to the free list, merged with the free stretches it touches.
void release(DeviceHeap& h, std::size_t offset, std::size_t length) {
  auto next = h.free_stretches.lower_bound(offset);
  if (next != h.free_stretches.end() && offset + length == next->first) {
    length += next->second;
    next = h.free_stretches.erase(next);
  }
  if (next != h.free_stretches.begin()) {
    auto before = std::prev(next);
    if (before->first + before->second == offset) {
      before->second += length;
      return;
    }
  }
  h.free_stretches.emplace(offset, length);
}

}  // namespace

void* device_heap_allocate(std::size_t bytes, std::size_t heap_bytes) {
  if (bytes == 0 || bytes > (std::size_t{1} << 40)) return nullptr;
  const std::size_t length = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  DeviceHeap& h = heap();
  std::lock_guard lock(h.mutex);
  if (h.begin == 0 && !make_arena(h, heap_bytes)) return nullptr;
  if (length > h.heap_bytes - std::min(h.live_bytes, h.heap_bytes)) return nullptr;  // the heap is full
  for (auto it = h.free_stretches.begin(); it != h.free_stretches.end(); ++it) {
    if (it->second < length) continue;  // first fit
    const std::size_t offset = it->first;
    const std::size_t rest = it->second - length;
    h.free_stretches.erase(it);
    if (rest != 0) h.free_stretches.emplace(offset + length, rest);
    h.in_use.emplace(offset, length);
    h.live_bytes += length;
    void* block = reinterpret_cast<void*>(h.begin + offset);
    std::memset(block, 0xff, length);  // uninitialised, as fresh device memory is here
    return block;
  }
  return nullptr;
}

bool device_heap_free(void* block) {
  const auto address = reinterpret_cast<std::uintptr_t>(block);
  if (block == nullptr || !in_device_heap(address)) return false;
  DeviceHeap& h = heap();
  std::lock_guard lock(h.mutex);
  const auto it = h.in_use.find(address - h.begin);
  if (it == h.in_use.end()) return true;  // not a block's start: nothing to free (CUDA: undefined)
  h.live_bytes -= it->second;
  h.freed_in_launch.emplace_back(it->first, it->second);
  h.in_use.erase(it);
  return true;
}

void device_heap_reuse_freed() {
  DeviceHeap& h = heap();
  std::lock_guard lock(h.mutex);
  for (const auto& [offset, length] : h.freed_in_launch) release(h, offset, length);
  h.freed_in_launch.clear();
}

bool in_device_heap(std::uintptr_t address) {
  const DeviceHeap& h = heap();
  const std::uintptr_t begin = h.begin.load(std::memory_order_acquire);
  return begin != 0 && address >= begin && address - begin < h.bytes.load(std::memory_order_relaxed);
}

DeviceHeapExtent device_heap_extent() {
  const DeviceHeap& h = heap();
  return {h.begin.load(std::memory_order_acquire), h.bytes.load(std::memory_order_relaxed)};
}

}  // namespace parlab_sim::detail
