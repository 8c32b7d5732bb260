#include "memory/guarded_mapping.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <deque>
#include <mutex>

namespace parlab_sim::detail {
namespace {

std::uintptr_t page_size() {
  static const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  return page;
}

struct Quarantine {
  static constexpr std::size_t kMaxRanges = 256;
  static constexpr std::size_t kMaxBytes = std::size_t{1} << 32;
  std::mutex mutex;
  std::deque<MemoryRange> ranges;
  std::size_t bytes = 0;
};

Quarantine& quarantine_list() {
  static Quarantine* list = new Quarantine;  // used until exit
  return *list;
}

}  // namespace

bool map_guarded(std::size_t bytes, MemoryKind kind, MemoryRange& out) {
  const std::uintptr_t page = page_size();
  if (bytes > (std::size_t{1} << 46)) return false;
  const std::uintptr_t placed = (bytes + kAllocationAlignment - 1) / kAllocationAlignment *
                                kAllocationAlignment;  // the bytes and the slack
  const std::uintptr_t data = (placed + page - 1) / page * page;
  const std::uintptr_t total = data + 2 * page;
  void* region = mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (region == MAP_FAILED) return false;
  const auto region_begin = reinterpret_cast<std::uintptr_t>(region);
  if (mprotect(reinterpret_cast<void*>(region_begin + page), data, PROT_READ | PROT_WRITE) != 0) {
    munmap(region, total);
    return false;
  }
  // The bytes rounded up to 256 end exactly at the trailing guard page: the page size is
  // a multiple of 256, so the start is 256-byte aligned.
  const std::uintptr_t slack_end = region_begin + page + data;
  const std::uintptr_t begin = slack_end - placed;
  std::memset(reinterpret_cast<void*>(begin), 0xff, placed);
  out = MemoryRange{begin, begin + bytes, region_begin, region_begin + total, kind, kind};
  return true;
}

std::uintptr_t accessible_begin(const MemoryRange& range) {
  return range.region_begin != 0 ? range.region_begin + page_size() : range.begin;
}

std::uintptr_t accessible_end(const MemoryRange& range) {
  return range.region_begin != 0 ? range.region_end - page_size() : range.end;
}

void quarantine(const MemoryRange& range) {
  if (range.region_begin == 0) return;
  const std::size_t bytes = range.region_end - range.region_begin;
  // Drop the pages but keep the addresses reserved and inaccessible.
  mmap(reinterpret_cast<void*>(range.region_begin), bytes, PROT_NONE,
       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
  MemoryRange freed = range;
  freed.freed_kind = range.kind;
  freed.kind = MemoryKind::freed;

  Quarantine& list = quarantine_list();
  std::lock_guard lock(list.mutex);
  if (!MemoryRegistry::instance().add(freed)) {
    munmap(reinterpret_cast<void*>(range.region_begin), bytes);
    return;
  }
  list.ranges.push_back(freed);
  list.bytes += bytes;
  while (list.ranges.size() > Quarantine::kMaxRanges || list.bytes > Quarantine::kMaxBytes) {
    const MemoryRange oldest = list.ranges.front();
    list.ranges.pop_front();
    list.bytes -= oldest.region_end - oldest.region_begin;
    MemoryRange removed;
    MemoryRegistry::instance().take(oldest.begin, MemoryKind::freed, removed);
    munmap(reinterpret_cast<void*>(oldest.region_begin), oldest.region_end - oldest.region_begin);
  }
}

}  // namespace parlab_sim::detail
