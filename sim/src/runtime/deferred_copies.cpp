#include "runtime/deferred_copies.hpp"

#include <execinfo.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "runtime/early_access.hpp"
#include "runtime/memory_registry.hpp"

namespace parlab_sim::detail {
namespace {

struct PendingCopy {
  cudaStream_t stream;
  bool blocking;  // the legacy default stream waits for its stream
  unsigned stream_number;
  std::uint64_t number;  // issue order
  std::byte* dst;
  std::vector<std::byte> bytes;
  std::source_location site;
  // Its destination pages are inaccessible (the simulator's pinned memory) until it
  // lands or its first early access is recorded.
  bool watched;
  bool watchable;  // in the simulator's own mapping: its pages may be protected
  std::uintptr_t buffer_begin;
  std::size_t buffer_bytes;
  // Not a copy but a kernel's writes to managed memory (runtime/managed_kernel_writes.hpp):
  // the kernel's name.
  const char* kernel = nullptr;
};

// cudaStreamWaitEvent: `waiter`'s later work waits for `source`'s copies numbered up to
// `issued` (those before the event). `at`: g_issued when the wait was made, so an event
// recorded on the waiter before the wait does not include it.
struct StreamWait {
  cudaStream_t waiter;
  cudaStream_t source;
  std::uint64_t issued;
  std::uint64_t at;
};

// A stream's copies up to `issued` (the legacy default stream: every blocking stream's).
struct OrderedBound {
  cudaStream_t stream;
  std::uint64_t issued;
};

std::mutex g_mutex;
std::vector<PendingCopy> g_pending;
std::vector<StreamWait> g_waits;
std::uint64_t g_issued = 0;

bool is_legacy_default(cudaStream_t stream) {
  return stream == nullptr || stream == cudaStreamLegacy;
}

cudaStream_t normalized(cudaStream_t stream) { return is_legacy_default(stream) ? nullptr : stream; }

// What synchronizing `stream` up to `issued` orders: its own copies and, through the
// event waits it made before that point, those of the streams it waited for (and theirs).
// g_mutex held.
std::vector<OrderedBound> ordered_before_locked(cudaStream_t stream, std::uint64_t issued) {
  std::vector<OrderedBound> bounds{{normalized(stream), issued}};
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    for (const StreamWait& wait : g_waits) {
      if (wait.waiter != bounds[i].stream || wait.at > bounds[i].issued) continue;
      auto known = std::find_if(bounds.begin(), bounds.end(), [&](const OrderedBound& b) {
        return b.stream == wait.source;
      });
      if (known == bounds.end()) {
        bounds.push_back({wait.source, wait.issued});
      } else if (known->issued < wait.issued) {
        known->issued = wait.issued;  // visited again below with the wider bound
        bounds.push_back({wait.source, wait.issued});
      }
    }
  }
  return bounds;
}

bool covers(const OrderedBound& bound, const PendingCopy& copy) {
  if (copy.number > bound.issued) return false;
  return bound.stream == nullptr ? copy.blocking : copy.stream == bound.stream;
}

bool find_range(const void* pointer, MemoryRange& range) {
  return MemoryRegistry::instance().find(reinterpret_cast<std::uintptr_t>(pointer), range);
}

bool is_page_locked_host(const void* pointer) {
  MemoryRange range;
  if (!find_range(pointer, range)) return false;
  return range.kind == MemoryKind::pinned_host || range.kind == MemoryKind::registered_host;
}

bool is_device_memory(const void* pointer) {
  MemoryRange range;
  if (!find_range(pointer, range)) return false;
  return range.kind == MemoryKind::device || range.kind == MemoryKind::symbol;
}

std::uintptr_t page_size() {
  static const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  return page;
}

struct Pages {
  std::uintptr_t begin, end;
};

Pages pages_of(const PendingCopy& copy) {
  const std::uintptr_t page = page_size();
  const auto begin = reinterpret_cast<std::uintptr_t>(copy.dst);
  return {begin / page * page, (begin + copy.bytes.size() + page - 1) / page * page};
}

void set_access(std::uintptr_t begin, std::uintptr_t end, int protection) {
  if (end > begin) mprotect(reinterpret_cast<void*>(begin), end - begin, protection);
}

// Makes [begin, end) (pages of the simulator's pinned memory) accessible, except the
// pages of the copies still watched. g_mutex held.
void reprotect_locked(std::uintptr_t begin, std::uintptr_t end) {
  set_access(begin, end, PROT_READ | PROT_WRITE);
  for (const PendingCopy& copy : g_pending) {
    if (!copy.watched) continue;
    const Pages pages = pages_of(copy);
    set_access(std::max(begin, pages.begin), std::min(end, pages.end), PROT_NONE);
  }
}

// Writes (in issue order) and forgets the pending copies `done` selects; then reports
// the early accesses recorded so far (outside the lock: that runs addr2line).
template <class Done>
void complete_if(Done done) {
  {
    std::lock_guard lock(g_mutex);
    std::vector<PendingCopy> kept;
    std::vector<Pages> opened;
    for (PendingCopy& copy : g_pending) {
      if (done(copy)) {
        if (copy.watchable) {  // a page may be protected for another copy
          opened.push_back(pages_of(copy));
          set_access(opened.back().begin, opened.back().end, PROT_READ | PROT_WRITE);
        }
        std::memcpy(copy.dst, copy.bytes.data(), copy.bytes.size());
      } else {
        kept.push_back(std::move(copy));
      }
    }
    g_pending.swap(kept);
    if (g_pending.empty()) g_waits.clear();  // later copies are numbered after every wait
    for (const Pages& pages : opened) reprotect_locked(pages.begin, pages.end);
  }
  report_early_accesses();
}

// Findings of accesses not followed by any synchronization still get written.
void report_at_exit() { report_early_accesses(); }

// Queues bytes that reach `dst` at a synchronization; their pages are watched where
// they are the simulator's own pinned or managed mapping.
void defer_bytes(cudaStream_t stream, void* dst, std::vector<std::byte> bytes, std::source_location site,
                 const char* kernel) {
  static const bool ready = [] {
    void* frame[1];
    backtrace(frame, 1);  // loads the unwinder now, not first in the SIGSEGV handler
    return std::atexit(report_at_exit) == 0;
  }();
  (void)ready;
  MemoryRange range;
  find_range(dst, range);
  // Only the simulator's own mappings: a registered buffer shares its pages with
  // whatever the program keeps next to it.
  const auto begin = reinterpret_cast<std::uintptr_t>(dst);
  // Watching needs stepping over one instruction (fault/pending_copy_fault.cpp): x86-64.
#if defined(__x86_64__)
  constexpr bool kCanWatch = true;
#else
  constexpr bool kCanWatch = false;
#endif
  const bool own_mapping = range.kind == MemoryKind::pinned_host || range.kind == MemoryKind::managed;
  const bool watched = kCanWatch && own_mapping && range.region_begin != 0 && begin >= range.begin &&
                       begin <= range.end && bytes.size() <= range.end - begin;
  std::lock_guard lock(g_mutex);
  g_pending.push_back(PendingCopy{stream, is_blocking_stream(stream), stream_number(stream),
                                  ++g_issued, static_cast<std::byte*>(dst), std::move(bytes), site,
                                  watched, watched, range.begin, range.end - range.begin, kernel});
  if (watched) {
    const Pages pages = pages_of(g_pending.back());
    set_access(pages.begin, pages.end, PROT_NONE);
  }
}

}  // namespace

bool copy_is_deferred(void* dst, const void* src, cudaMemcpyKind kind) {
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDefault) return false;
  return is_device_memory(src) && is_page_locked_host(dst);
}

void defer_copy_to_host(cudaStream_t stream, void* dst, const void* src, std::size_t bytes,
                        std::source_location site) {
  complete_copies_touching(dst, bytes);  // an earlier copy to the same bytes lands first
  complete_copies_touching(src, bytes);  // a kernel's pending writes to managed memory too
  const auto* from = static_cast<const std::byte*>(src);
  defer_bytes(stream, dst, std::vector<std::byte>(from, from + bytes), site, nullptr);
}

void defer_kernel_writes(cudaStream_t stream, void* dst, std::vector<std::byte> written,
                         const char* kernel_name) {
  defer_bytes(stream, dst, std::move(written), std::source_location{}, kernel_name);
}

void complete_kernel_writes() {
  complete_if([](const PendingCopy& copy) { return copy.kernel != nullptr; });
}

void complete_stream_copies(cudaStream_t stream) {
  complete_stream_copies_before(stream, UINT64_MAX);
}

void complete_all_copies() {
  complete_if([](const PendingCopy&) { return true; });
}

std::uint64_t copies_issued() {
  std::lock_guard lock(g_mutex);
  return g_issued;
}

void complete_stream_copies_before(cudaStream_t stream, std::uint64_t issued) {
  std::vector<OrderedBound> bounds;
  {
    std::lock_guard lock(g_mutex);
    bounds = ordered_before_locked(stream, issued);
  }
  complete_if([&](const PendingCopy& copy) {
    return std::any_of(bounds.begin(), bounds.end(),
                       [&](const OrderedBound& bound) { return covers(bound, copy); });
  });
}

void wait_for_stream(cudaStream_t waiter, cudaStream_t source, std::uint64_t issued) {
  std::lock_guard lock(g_mutex);
  const bool pending = std::any_of(g_pending.begin(), g_pending.end(), [&](const PendingCopy& copy) {
    return copy.number <= issued && covers({normalized(source), issued}, copy);
  });
  if (pending) g_waits.push_back({normalized(waiter), normalized(source), issued, g_issued});
}

void complete_copies_touching(const void* pointer, std::size_t bytes) {
  const auto* begin = static_cast<const std::byte*>(pointer);
  const std::byte* end = begin + bytes;
  complete_if([&](const PendingCopy& copy) {
    return copy.dst < end && begin < copy.dst + copy.bytes.size();
  });
}

PendingPageFault on_pending_page_fault(std::uintptr_t address, bool write, const void* pc,
                                       CaptureFrames capture_frames, std::uintptr_t& page) {
  std::lock_guard lock(g_mutex);
  bool on_watched_page = false;
  for (PendingCopy& copy : g_pending) {
    if (!copy.watched) continue;
    const Pages pages = pages_of(copy);
    if (address < pages.begin || address >= pages.end) continue;
    on_watched_page = true;
    const auto begin = reinterpret_cast<std::uintptr_t>(copy.dst);
    if (address < begin || address >= begin + copy.bytes.size()) continue;
    EarlyAccess access;
    access.write = write;
    access.pc = pc;
    access.frame_count = capture_frames(access.frames, EarlyAccess::kFrames);
    access.copy_file = copy.site.file_name();
    access.copy_line = copy.site.line();
    access.stream_number = copy.stream_number;
    access.offset = begin - copy.buffer_begin;
    access.copy_bytes = copy.bytes.size();
    access.buffer_bytes = copy.buffer_bytes;
    access.kernel_name = copy.kernel;
    record_early_access(access);
    copy.watched = false;  // one report per copy; later accesses see the stale bytes
    reprotect_locked(pages.begin, pages.end);
    return PendingPageFault::early;
  }
  if (!on_watched_page) return PendingPageFault::none;
  page = address / page_size() * page_size();
  set_access(page, page + page_size(), PROT_READ | PROT_WRITE);
  return PendingPageFault::neighbour;
}

void reprotect_pending_page(std::uintptr_t page) {
  std::lock_guard lock(g_mutex);
  reprotect_locked(page, page + page_size());
}

}  // namespace parlab_sim::detail
