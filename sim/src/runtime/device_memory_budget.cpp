#include "runtime/device_memory_budget.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>

namespace parlab_sim::detail {
namespace {
std::atomic<std::size_t> g_in_use{0};
}

std::size_t device_memory_capacity() {
  static const std::size_t capacity = [] {
    const std::size_t eight_gib = std::size_t{8} << 30;
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return eight_gib;
    return std::min(eight_gib, static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) / 2);
  }();
  return capacity;
}

bool reserve_device_memory(std::size_t bytes) {
  std::size_t used = g_in_use.load();
  do {
    if (bytes > device_memory_capacity() - used) return false;
  } while (!g_in_use.compare_exchange_weak(used, used + bytes));
  return true;
}

void release_device_memory(std::size_t bytes) { g_in_use.fetch_sub(bytes); }

std::size_t device_memory_in_use() { return g_in_use.load(); }

}  // namespace parlab_sim::detail
