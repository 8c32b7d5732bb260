#include "copies/deferred_copies.hpp"

#include <execinfo.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "memory/device_pages.hpp"
#include "copies/early_access.hpp"
#include "memory/memory_registry.hpp"

namespace parlab_sim::detail {
namespace {

struct PendingCopy {
  cudaStream_t stream;
  bool blocking;  // the legacy default stream waits for its stream
  unsigned stream_number;
  std::uint64_t number;  // issue order
  std::byte* dst;
  std::vector<std::byte> bytes;  // a copy to the host, a kernel's writes: what lands
  std::source_location site;
  // The pages it watches (its destination, or a copy to the device's source) are
  // protected (the simulator's pinned memory) until it completes or its first early
  // access is recorded.
  bool watched;
  bool watchable;  // in the simulator's own mapping: its pages may be protected
  std::uintptr_t buffer_begin;
  std::size_t buffer_bytes;
  // Not a copy but a kernel's writes to managed memory (runtime/managed_kernel_writes.hpp):
  // the kernel's name.
  const char* kernel = nullptr;
  // Not a copy to the host but a copy to the device from page-locked memory: it reads
  // `source` when it lands (as late as a GPU may), `size` bytes; its source pages are
  // read-only until it completes, so the first host write is an early access.
  const std::byte* source = nullptr;
  std::size_t size = 0;
  bool landed = false;  // the device holds its bytes; watched still until it completes
};

bool to_device(const PendingCopy& copy) { return copy.source != nullptr; }
std::size_t length(const PendingCopy& copy) { return to_device(copy) ? copy.size : copy.bytes.size(); }
// The host bytes an access to which is early: a copy to the device's source, else the destination.
std::uintptr_t watched_begin(const PendingCopy& copy) {
  return reinterpret_cast<std::uintptr_t>(to_device(copy) ? copy.source : copy.dst);
}

// cudaStreamWaitEvent: `waiter`'s later work waits for `source`'s copies numbered up to
// `issued` (those before the event). `at`: the issued count when the wait was made, so an event
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

// The copies not yet complete and the event waits between streams: this area's whole
// state, in one object. Constant-initialized: the SIGSEGV handler reads it on any
// access fault, perhaps before the first copy, so reaching it must never allocate.
struct CopyQueue {
  std::mutex mutex;
  std::vector<PendingCopy> pending;
  std::vector<StreamWait> waits;
  std::uint64_t issued = 0;  // copies issued so far (a copy's number)
  // During a launch the sources of copies to the device are writable: the kernel is
  // ordered after them (it runs on the host's threads in the simulator).
  bool sources_open = false;
};

constinit CopyQueue queue;

bool is_legacy_default(cudaStream_t stream) {
  return stream == nullptr || stream == cudaStreamLegacy;
}

cudaStream_t normalized(cudaStream_t stream) { return is_legacy_default(stream) ? nullptr : stream; }

// What synchronizing `stream` up to `issued` orders: its own copies and, through the
// event waits it made before that point, those of the streams it waited for (and theirs).
// The queue's mutex held.
std::vector<OrderedBound> ordered_before_locked(cudaStream_t stream, std::uint64_t issued) {
  std::vector<OrderedBound> bounds{{normalized(stream), issued}};
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    for (const StreamWait& wait : queue.waits) {
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
  const std::uintptr_t begin = watched_begin(copy);
  return {begin / page * page, (begin + length(copy) + page - 1) / page * page};
}

bool overlaps(const Pages& a, const Pages& b) { return a.begin < b.end && b.begin < a.end; }

void set_access(std::uintptr_t begin, std::uintptr_t end, int protection) {
  if (end > begin) mprotect(reinterpret_cast<void*>(begin), end - begin, protection);
}

// Sorted, overlapping or touching ranges joined: one mprotect each, however many
// copies share a page (a pipeline of one-element chunks queues thousands).
std::vector<Pages> merged(std::vector<Pages> ranges) {
  std::sort(ranges.begin(), ranges.end(), [](const Pages& a, const Pages& b) { return a.begin < b.begin; });
  std::vector<Pages> joined;
  for (const Pages& range : ranges) {
    if (range.end <= range.begin) continue;
    if (!joined.empty() && range.begin <= joined.back().end) {
      joined.back().end = std::max(joined.back().end, range.end);
    } else {
      joined.push_back(range);
    }
  }
  return joined;
}

// Makes [begin, end) (pages of the simulator's pinned memory) accessible, except the
// pages of the copies still watched: read-only for a copy to the device's source,
// inaccessible for the others (that wins on a page both watch). The queue's mutex held.
void reprotect_locked(std::uintptr_t begin, std::uintptr_t end) {
  std::vector<Pages> read_only, closed;
  for (const PendingCopy& copy : queue.pending) {
    if (!copy.watched || (to_device(copy) && queue.sources_open)) continue;
    const Pages pages = pages_of(copy);
    const Pages inside{std::max(begin, pages.begin), std::min(end, pages.end)};
    (to_device(copy) ? read_only : closed).push_back(inside);
  }
  set_access(begin, end, PROT_READ | PROT_WRITE);
  for (const Pages& pages : merged(std::move(read_only))) set_access(pages.begin, pages.end, PROT_READ);
  for (const Pages& pages : merged(std::move(closed))) set_access(pages.begin, pages.end, PROT_NONE);
}

// A copy to the device reads its source now. Only a page another copy made
// inaccessible needs opening (a read-only page reads). The queue's mutex held.
void land_locked(PendingCopy& copy) {
  const Pages pages = pages_of(copy);
  const bool closed = std::any_of(queue.pending.begin(), queue.pending.end(), [&](const PendingCopy& other) {
    return other.watched && !to_device(other) && overlaps(pages_of(other), pages);
  });
  if (closed) set_access(pages.begin, pages.end, PROT_READ | PROT_WRITE);
  {
    const DeviceMemoryOpen open(copy.dst);  // device memory, maybe landing at a sync
    std::memcpy(copy.dst, copy.source, copy.size);
  }
  if (closed) reprotect_locked(pages.begin, pages.end);
  copy.landed = true;
}

enum class Step { keep, land, complete };

// Takes the step `decide` chooses for each pending copy, in issue order: `complete`
// writes its bytes (a copy to the device reads its source, unless it landed already)
// and forgets it; `land` only sends a copy to the device its bytes, and it stays
// watched until it completes. Then reports the early accesses recorded so far
// (outside the lock: that runs addr2line).
template <class Decide>
void advance(Decide decide) {
  {
    std::lock_guard lock(queue.mutex);
    // Steps first, moves after: landing looks at every pending copy's pages.
    std::vector<Step> steps;
    steps.reserve(queue.pending.size());
    for (const PendingCopy& copy : queue.pending) steps.push_back(decide(copy));
    std::vector<Pages> opened;
    for (std::size_t i = 0; i < queue.pending.size(); ++i) {
      PendingCopy& copy = queue.pending[i];
      if (to_device(copy)) {
        if (steps[i] != Step::keep && !copy.landed) land_locked(copy);
        if (steps[i] == Step::complete && copy.watched) opened.push_back(pages_of(copy));
      } else if (steps[i] == Step::complete) {
        if (copy.watchable) {  // a page may be protected for another copy
          opened.push_back(pages_of(copy));
          set_access(opened.back().begin, opened.back().end, PROT_READ | PROT_WRITE);
        }
        std::memcpy(copy.dst, copy.bytes.data(), copy.bytes.size());
      }
    }
    std::vector<PendingCopy> kept;
    for (std::size_t i = 0; i < queue.pending.size(); ++i) {
      if (steps[i] != Step::complete) kept.push_back(std::move(queue.pending[i]));
    }
    queue.pending.swap(kept);
    if (queue.pending.empty()) queue.waits.clear();  // later copies are numbered after every wait
    for (const Pages& pages : merged(std::move(opened))) reprotect_locked(pages.begin, pages.end);
  }
  report_early_accesses();
}

template <class Done>
void complete_if(Done done) {
  advance([&](const PendingCopy& copy) { return done(copy) ? Step::complete : Step::keep; });
}

// Findings of accesses not followed by any synchronization still get written.
void report_at_exit() { report_early_accesses(); }

// Queues `copy` (its stream, ends, bytes, site or kernel set) on its stream; the pages
// it watches (watched_begin) are protected where they are the simulator's own pinned
// or managed mapping.
void defer(PendingCopy copy) {
  static const bool ready = [] {
    void* frame[1];
    backtrace(frame, 1);  // loads the unwinder now, not first in the SIGSEGV handler
    return std::atexit(report_at_exit) == 0;
  }();
  (void)ready;
  const std::uintptr_t begin = watched_begin(copy);
  MemoryRange range;
  find_range(reinterpret_cast<const void*>(begin), range);
  // Only the simulator's own mappings: a registered buffer shares its pages with
  // whatever the program keeps next to it.
  // Watching needs stepping over one instruction (fault/pending_copy_fault.cpp): x86-64.
#if defined(__x86_64__)
  constexpr bool kCanWatch = true;
#else
  constexpr bool kCanWatch = false;
#endif
  const bool own_mapping = range.kind == MemoryKind::pinned_host || range.kind == MemoryKind::managed;
  const bool watched = kCanWatch && own_mapping && range.region_begin != 0 && begin >= range.begin &&
                       begin <= range.end && length(copy) <= range.end - begin;
  copy.blocking = is_blocking_stream(copy.stream);
  copy.stream_number = stream_number(copy.stream);
  copy.watched = copy.watchable = watched;
  copy.buffer_begin = range.begin;
  copy.buffer_bytes = range.end - range.begin;
  std::lock_guard lock(queue.mutex);
  copy.number = ++queue.issued;
  queue.pending.push_back(std::move(copy));
  if (!watched) return;
  const Pages pages = pages_of(queue.pending.back());
  if (to_device(queue.pending.back())) {
    reprotect_locked(pages.begin, pages.end);  // read-only, unless another copy closed them
  } else {
    set_access(pages.begin, pages.end, PROT_NONE);
  }
}

PendingCopy queued(cudaStream_t stream, void* dst, std::source_location site) {
  PendingCopy copy{};
  copy.stream = stream;
  copy.dst = static_cast<std::byte*>(dst);
  copy.site = site;
  return copy;
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
  PendingCopy copy = queued(stream, dst, site);
  copy.bytes.assign(from, from + bytes);
  defer(std::move(copy));
}

bool copy_to_device_is_deferred(void* dst, const void* src, cudaMemcpyKind kind) {
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDefault) return false;
  MemoryRange range;
  return is_page_locked_host(src) && find_range(dst, range) && range.kind == MemoryKind::device;
}

void defer_copy_to_device(cudaStream_t stream, void* dst, const void* src, std::size_t bytes,
                          std::source_location site) {
  // What a copy to the host brings into the source, or a kernel's pending writes there,
  // lands first (an earlier copy to the device reading the same bytes need not).
  const auto* begin = static_cast<const std::byte*>(src);
  complete_if([&](const PendingCopy& copy) {
    return !to_device(copy) && copy.dst < begin + bytes && begin < copy.dst + copy.bytes.size();
  });
  PendingCopy copy = queued(stream, dst, site);
  copy.source = begin;
  copy.size = bytes;
  defer(std::move(copy));
}

void defer_kernel_writes(cudaStream_t stream, void* dst, std::vector<std::byte> written,
                         const char* kernel_name) {
  PendingCopy copy = queued(stream, dst, std::source_location{});
  copy.bytes = std::move(written);
  copy.kernel = kernel_name;
  defer(std::move(copy));
}

void land_copies_to_device() {
  advance([](const PendingCopy& copy) { return to_device(copy) ? Step::land : Step::keep; });
}

void open_device_sources(bool open) {
  std::lock_guard lock(queue.mutex);
  if (queue.sources_open == open) return;
  queue.sources_open = open;
  std::vector<Pages> sources;
  for (const PendingCopy& copy : queue.pending) {
    if (to_device(copy) && copy.watched) sources.push_back(pages_of(copy));
  }
  for (const Pages& pages : merged(std::move(sources))) reprotect_locked(pages.begin, pages.end);
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
  std::lock_guard lock(queue.mutex);
  return queue.issued;
}

void complete_stream_copies_before(cudaStream_t stream, std::uint64_t issued) {
  std::vector<OrderedBound> bounds;
  {
    std::lock_guard lock(queue.mutex);
    bounds = ordered_before_locked(stream, issued);
  }
  complete_if([&](const PendingCopy& copy) {
    return std::any_of(bounds.begin(), bounds.end(),
                       [&](const OrderedBound& bound) { return covers(bound, copy); });
  });
}

void wait_for_stream(cudaStream_t waiter, cudaStream_t source, std::uint64_t issued) {
  std::lock_guard lock(queue.mutex);
  const bool pending = std::any_of(queue.pending.begin(), queue.pending.end(), [&](const PendingCopy& copy) {
    return copy.number <= issued && covers({normalized(source), issued}, copy);
  });
  if (pending) queue.waits.push_back({normalized(waiter), normalized(source), issued, queue.issued});
}

void complete_copies_touching(const void* pointer, std::size_t bytes) {
  const auto* begin = static_cast<const std::byte*>(pointer);
  const std::byte* end = begin + bytes;
  advance([&](const PendingCopy& copy) {
    const bool on_destination = copy.dst < end && begin < copy.dst + length(copy);
    if (!to_device(copy)) return on_destination ? Step::complete : Step::keep;
    // Overwriting a copy to the device's source comes after it; device work on its
    // destination needs only its bytes.
    if (copy.source < end && begin < copy.source + copy.size) return Step::complete;
    return on_destination ? Step::land : Step::keep;
  });
}

PendingPageFault on_pending_page_fault(std::uintptr_t address, bool write, const void* pc,
                                       CaptureFrames capture_frames, std::uintptr_t& page) {
  std::lock_guard lock(queue.mutex);
  bool on_watched_page = false;
  for (PendingCopy& copy : queue.pending) {
    if (!copy.watched) continue;
    const Pages pages = pages_of(copy);
    if (address < pages.begin || address >= pages.end) continue;
    on_watched_page = true;
    const std::uintptr_t begin = watched_begin(copy);
    if (address < begin || address >= begin + length(copy)) continue;
    if (to_device(copy) && !write) continue;  // reads its source: only another copy closed the page
    EarlyAccess access;
    access.write = write;
    access.pc = pc;
    access.frame_count = capture_frames(access.frames, EarlyAccess::kFrames);
    access.copy_file = copy.site.file_name();
    access.copy_line = copy.site.line();
    access.stream_number = copy.stream_number;
    access.offset = begin - copy.buffer_begin;
    access.copy_bytes = length(copy);
    access.buffer_bytes = copy.buffer_bytes;
    access.kernel_name = copy.kernel;
    access.source_of_copy_to_device = to_device(copy);
    access.source_already_sent = copy.landed;
    record_early_access(access);
    // One report per copy; later accesses see the stale bytes (a copy to the device
    // reads the new ones when it lands).
    copy.watched = false;
    reprotect_locked(pages.begin, pages.end);
    return PendingPageFault::early;
  }
  if (!on_watched_page) return PendingPageFault::none;
  page = address / page_size() * page_size();
  set_access(page, page + page_size(), PROT_READ | PROT_WRITE);
  return PendingPageFault::neighbour;
}

void reprotect_pending_page(std::uintptr_t page) {
  std::lock_guard lock(queue.mutex);
  reprotect_locked(page, page + page_size());
}

}  // namespace parlab_sim::detail
