#include "runtime/managed_kernel_writes.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "race/grid_shadow.hpp"
#include "exec/race_check.hpp"
#include "copies/deferred_copies.hpp"
#include "memory/memory_registry.hpp"
#include "runtime/device_context.hpp"

namespace parlab_sim::detail {
namespace {

struct WrittenWord {
  std::uintptr_t address;  // 4-byte aligned
  std::uint32_t old_word;  // before the launch
};

struct ManagedWrites {
  MemoryRange range;
  std::vector<WrittenWord> words;
};

// The kernel's name for as long as the program runs (the finding may come at exit).
const char* lasting_name(const char* name) {
  KernelNames& kept = device_context().kernel_names;
  std::lock_guard lock(kept.mutex);
  return kept.names.insert(name == nullptr ? "?" : name).first->c_str();
}

std::vector<ManagedWrites> managed_ranges() {
  std::vector<ManagedWrites> ranges;
  MemoryRegistry::instance().for_each([&](const MemoryRange& range) {
    if (range.kind == MemoryKind::managed && range.region_begin != 0) ranges.push_back({range, {}});
  });
  std::sort(ranges.begin(), ranges.end(),
            [](const ManagedWrites& a, const ManagedWrites& b) { return a.range.begin < b.range.begin; });
  return ranges;
}

// The words of managed memory the launch wrote, by allocation.
void collect_written_words(std::vector<ManagedWrites>& ranges) {
  grid_shadow().for_each_word([&](std::uintptr_t word, std::uint32_t old_word) {
    auto it = std::upper_bound(ranges.begin(), ranges.end(), word,
                               [](std::uintptr_t w, const ManagedWrites& m) { return w < m.range.begin; });
    // A word may start up to 3 bytes before an unaligned allocation's first byte.
    if (it != ranges.end() && word + 4 > it->range.begin && word < it->range.begin) {
      it->words.push_back({word, old_word});
      return;
    }
    if (it == ranges.begin()) return;
    --it;
    if (word < it->range.end) it->words.push_back({word, old_word});
  });
}

// Puts the old bytes back over one allocation's span of written words and queues what the
// kernel wrote there.
void defer_allocation(const ManagedWrites& writes, const LaunchRequest& request) {
  std::uintptr_t begin = writes.range.end, end = writes.range.begin;
  for (const WrittenWord& w : writes.words) {
    begin = std::min(begin, std::max(w.address, writes.range.begin));
    end = std::max(end, std::min(w.address + 4, writes.range.end));
  }
  if (end <= begin) return;
  auto* span = reinterpret_cast<std::byte*>(begin);
  std::vector<std::byte> written(span, span + (end - begin));
  for (const WrittenWord& w : writes.words) {
    if (w.address >= begin && w.address + 4 <= end) {
      std::memcpy(reinterpret_cast<void*>(w.address), &w.old_word, 4);
      continue;
    }
    for (unsigned b = 0; b < 4; ++b) {  // a word only partly in the allocation
      const std::uintptr_t at = w.address + b;
      if (at >= begin && at < end) {
        std::memcpy(reinterpret_cast<void*>(at), reinterpret_cast<const std::byte*>(&w.old_word) + b, 1);
      }
    }
  }
  if (std::memcmp(span, written.data(), written.size()) == 0) return;  // nothing changed
  defer_kernel_writes(request.config.stream, span, std::move(written), lasting_name(request.kernel_name));
}

}  // namespace

void defer_managed_writes_of_launch(const LaunchRequest& request) {
  if (!g_locked.race_check_enabled) return;
  std::vector<ManagedWrites> ranges = managed_ranges();
  if (ranges.empty()) return;  // the usual case: no managed memory, nothing to do
  collect_written_words(ranges);
  for (const ManagedWrites& writes : ranges) {
    if (!writes.words.empty()) defer_allocation(writes, request);
  }
}

}  // namespace parlab_sim::detail
