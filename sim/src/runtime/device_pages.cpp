#include "runtime/device_pages.hpp"

#include <sys/mman.h>

#include <mutex>

#include "runtime/guarded_mapping.hpp"

namespace parlab_sim::detail {
namespace {

// Guards the open count and every change to a device allocation's protection, so an
// allocation made or freed while another thread opens device memory gets the right one.
std::mutex g_mutex;
int g_open = 0;

// Only the accessible pages: the guard pages stay inaccessible.
void protect(const MemoryRange& range, int protection) {
  const std::uintptr_t begin = accessible_begin(range);
  mprotect(reinterpret_cast<void*>(begin), accessible_end(range) - begin, protection);
}

void protect_all(int protection) {
  MemoryRegistry::instance().for_each([&](const MemoryRange& range) {
    if (range.kind == MemoryKind::device && range.region_begin != 0) protect(range, protection);
  });
}

}  // namespace

DeviceMemoryOpen::DeviceMemoryOpen() {
  std::lock_guard lock(g_mutex);
  if (g_open++ == 0) protect_all(PROT_READ | PROT_WRITE);
}

DeviceMemoryOpen::~DeviceMemoryOpen() {
  std::lock_guard lock(g_mutex);
  if (--g_open == 0) protect_all(PROT_NONE);
}

bool add_allocation(const MemoryRange& range) {
  std::lock_guard lock(g_mutex);
  if (!MemoryRegistry::instance().add(range)) return false;
  if (range.kind == MemoryKind::device && g_open == 0) protect(range, PROT_NONE);
  return true;
}

bool take_and_quarantine(std::uintptr_t begin, MemoryKind kind, MemoryRange& out) {
  std::lock_guard lock(g_mutex);
  if (!MemoryRegistry::instance().take(begin, kind, out)) return false;
  quarantine(out);
  return true;
}

}  // namespace parlab_sim::detail
