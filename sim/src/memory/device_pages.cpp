#include "memory/device_pages.hpp"

#include <sys/mman.h>

#include <atomic>
#include <mutex>
#include <unordered_map>

#include "memory/guarded_mapping.hpp"

namespace parlab_sim::detail {
namespace {

constexpr std::size_t kMaxKernelOpenings = 4096;

// This area's whole state, in one constant-initialized object: the SIGSEGV handler
// records the kernels' openings, so nothing it touches may allocate or wait for an
// initializer.
struct DevicePagesState {
  // Guards the open counts and every change to a device allocation's protection, so an
  // allocation made or freed while another thread opens device memory gets the right
  // one. An allocation's pages are open while everything is open or its own count is
  // not 0.
  std::mutex mutex;
  int all_open = 0;
  std::unordered_map<std::uintptr_t, int>* range_counts = nullptr;  // by begin; made on first use
  // What kernels opened since the last launch ended, written by the SIGSEGV handler: a
  // fixed array (no allocation there); past its end, every allocation closes instead.
  std::atomic<std::uintptr_t> kernel_opened[kMaxKernelOpenings];
  std::atomic<std::size_t> kernel_opened_count{0};
};
constinit DevicePagesState state;

// The open counts; the mutex held.
std::unordered_map<std::uintptr_t, int>& range_counts() {
  if (state.range_counts == nullptr) state.range_counts = new std::unordered_map<std::uintptr_t, int>;
  return *state.range_counts;  // used until exit
}

// Only the accessible pages: the guard pages stay inaccessible.
bool protect(const MemoryRange& range, int protection) {
  const std::uintptr_t begin = accessible_begin(range);
  return mprotect(reinterpret_cast<void*>(begin), accessible_end(range) - begin, protection) == 0;
}

bool is_device_mapping(const MemoryRange& range) {
  return range.kind == MemoryKind::device && range.region_begin != 0;
}

// Every device allocation without an opening of its own. the mutex held.
void protect_all(int protection) {
  const auto& counts = range_counts();
  MemoryRegistry::instance().for_each([&](const MemoryRange& range) {
    if (is_device_mapping(range) && counts.count(range.begin) == 0) protect(range, protection);
  });
}

// The live device allocation holding `pointer`; its begin, or 0. the mutex held.
std::uintptr_t open_one(const void* pointer) {
  MemoryRange range;
  if (pointer == nullptr ||
      !MemoryRegistry::instance().find(reinterpret_cast<std::uintptr_t>(pointer), range) ||
      !is_device_mapping(range)) {
    return 0;
  }
  if (range_counts()[range.begin]++ == 0 && state.all_open == 0) protect(range, PROT_READ | PROT_WRITE);
  return range.begin;
}

// the mutex held. A range freed meanwhile lost its count (take_and_quarantine).
void close_one(std::uintptr_t begin) {
  auto& counts = range_counts();
  const auto it = counts.find(begin);
  if (begin == 0 || it == counts.end() || --it->second > 0) return;
  counts.erase(it);
  MemoryRange range;
  if (state.all_open == 0 && MemoryRegistry::instance().find(begin, range) && is_device_mapping(range) &&
      range.begin == begin) {
    protect(range, PROT_NONE);
  }
}

}  // namespace

DeviceMemoryOpen::DeviceMemoryOpen() : all_(true) {
  std::lock_guard lock(state.mutex);
  if (state.all_open++ == 0) protect_all(PROT_READ | PROT_WRITE);
}

DeviceMemoryOpen::DeviceMemoryOpen(const void* first, const void* second) {
  std::lock_guard lock(state.mutex);
  ranges_[0] = open_one(first);
  ranges_[1] = open_one(second);
}

DeviceMemoryOpen::~DeviceMemoryOpen() {
  std::lock_guard lock(state.mutex);
  if (all_) {
    if (--state.all_open == 0) protect_all(PROT_NONE);
    return;
  }
  close_one(ranges_[1]);
  close_one(ranges_[0]);
}

bool open_for_kernel(std::uintptr_t address) {
  MemoryRange range;
  if (!MemoryRegistry::instance().find(address, range) || !is_device_mapping(range) ||
      address < accessible_begin(range) || address >= accessible_end(range)) {
    return false;  // a guard page, freed memory, not device memory: a real fault
  }
  if (!protect(range, PROT_READ | PROT_WRITE)) return false;
  const std::size_t slot = state.kernel_opened_count.fetch_add(1);
  if (slot < kMaxKernelOpenings) state.kernel_opened[slot].store(range.begin);
  return true;
}

void close_kernel_openings() {
  std::lock_guard lock(state.mutex);
  const std::size_t count = state.kernel_opened_count.exchange(0);
  if (count == 0 || state.all_open > 0) return;
  if (count > kMaxKernelOpenings) {
    protect_all(PROT_NONE);
    return;
  }
  const auto& counts = range_counts();
  for (std::size_t i = 0; i < count; ++i) {
    const std::uintptr_t begin = state.kernel_opened[i].load();
    MemoryRange range;
    if (counts.count(begin) == 0 && MemoryRegistry::instance().find(begin, range) &&
        is_device_mapping(range) && range.begin == begin) {
      protect(range, PROT_NONE);
    }
  }
}

bool add_allocation(const MemoryRange& range) {
  std::lock_guard lock(state.mutex);
  if (!MemoryRegistry::instance().add(range)) return false;
  if (is_device_mapping(range) && state.all_open == 0) protect(range, PROT_NONE);
  return true;
}

bool take_and_quarantine(std::uintptr_t begin, MemoryKind kind, MemoryRange& out) {
  std::lock_guard lock(state.mutex);
  if (!MemoryRegistry::instance().take(begin, kind, out)) return false;
  range_counts().erase(out.begin);  // its openings end on freed memory: nothing to close
  quarantine(out);
  return true;
}

}  // namespace parlab_sim::detail
