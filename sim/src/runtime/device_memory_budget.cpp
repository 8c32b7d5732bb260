#include "runtime/device_memory_budget.hpp"

#include "runtime/device_context.hpp"

#include "parlab_sim/device_memory_limit.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>

namespace parlab_sim::detail {
namespace {
std::size_t default_capacity() {
  static const std::size_t capacity = [] {
    const std::size_t eight_gib = std::size_t{8} << 30;
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return eight_gib;
    return std::min(eight_gib, static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) / 2);
  }();
  return capacity;
}
}  // namespace

std::size_t device_memory_capacity() {
  const std::size_t set = device_context().memory.capacity_override.load();
  return set ? set : default_capacity();
}

bool reserve_device_memory(std::size_t bytes) {
  std::atomic<std::size_t>& in_use = device_context().memory.in_use;
  std::size_t used = in_use.load();
  do {
    const std::size_t capacity = device_memory_capacity();
    if (used > capacity || bytes > capacity - used) return false;
  } while (!in_use.compare_exchange_weak(used, used + bytes));
  return true;
}

void release_device_memory(std::size_t bytes) { device_context().memory.in_use.fetch_sub(bytes); }

std::size_t device_memory_in_use() { return device_context().memory.in_use.load(); }

}  // namespace parlab_sim::detail

namespace parlab_sim {

bool set_device_memory_capacity(std::size_t bytes) {
  if (bytes != 0 && detail::device_memory_in_use() > bytes) return false;
  detail::device_context().memory.capacity_override.store(bytes);
  return true;
}

}  // namespace parlab_sim
