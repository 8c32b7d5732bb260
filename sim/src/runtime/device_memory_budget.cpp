#include "runtime/device_memory_budget.hpp"

#include "parlab_sim/device_memory_limit.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>

namespace parlab_sim::detail {
namespace {
std::atomic<std::size_t> g_in_use{0};
std::atomic<std::size_t> g_capacity_override{0};  // 0: the default below

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
  const std::size_t set = g_capacity_override.load();
  return set ? set : default_capacity();
}

bool reserve_device_memory(std::size_t bytes) {
  std::size_t used = g_in_use.load();
  do {
    const std::size_t capacity = device_memory_capacity();
    if (used > capacity || bytes > capacity - used) return false;
  } while (!g_in_use.compare_exchange_weak(used, used + bytes));
  return true;
}

void release_device_memory(std::size_t bytes) { g_in_use.fetch_sub(bytes); }

std::size_t device_memory_in_use() { return g_in_use.load(); }

}  // namespace parlab_sim::detail

namespace parlab_sim {

bool set_device_memory_capacity(std::size_t bytes) {
  if (bytes != 0 && detail::device_memory_in_use() > bytes) return false;
  detail::g_capacity_override.store(bytes);
  return true;
}

}  // namespace parlab_sim
