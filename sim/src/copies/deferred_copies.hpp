#pragma once
// Asynchronous device-to-host copies (and kernels' writes to managed memory) completing
// as late as CUDA allows
// (docs/simulation-design.md, "Streams and events"). A cudaMemcpyAsync from device memory into
// page-locked host memory (cudaMallocHost, cudaHostAlloc, cudaHostRegister) returns on
// a GPU before the bytes arrive; host code that reads them before a synchronization
// that orders the copy (cudaStreamSynchronize, cudaEventSynchronize, cudaDeviceSynchronize,
// a synchronous cudaMemcpy, ...) sees whatever was there before. The simulator takes the
// device bytes when the copy is issued (all earlier work of the stream is done by then)
// and writes them into the host buffer only at such a synchronization, so a missing one
// gives the stale data a GPU would give. Copies into pageable memory are synchronous, as
// on a GPU.
//
// While such a copy into the simulator's own pinned memory is pending, the pages of its
// destination are inaccessible: the first host access to its bytes faults, is recorded
// as an early access (copies/early_access.hpp: the finding names the line and the
// copy) and then sees the stale bytes; an access to other bytes of those pages goes
// through (fault/signal_handlers.cpp steps over it).
//
// Asynchronous host-to-device copies from page-locked memory: a GPU's copy engine reads
// the source any time until the synchronization that orders the copy, so host code
// that refills the source before then may send the new bytes. The simulator reads the
// source as late as CUDA allows: when device work needs the destination (a launch, a
// copy or memset touching it) or at that synchronization. Until the synchronization the
// source pages are read-only: the first host write is an early access (the finding
// names the line, the copy and the stream), and then goes through, so a copy that has
// not landed yet sends the new bytes. From pageable memory the copy stays synchronous.
#include <cstddef>
#include <cstdint>
#include <source_location>
#include <vector>

#include "parlab_sim/memory.hpp"
#include "parlab_sim/streams_events.hpp"

namespace parlab_sim::detail {

// Whether a copy of this kind into `dst` is deferred (device source, page-locked host
// destination).
bool copy_is_deferred(void* dst, const void* src, cudaMemcpyKind kind);
// Takes the bytes now; they reach `dst` at the next synchronization that orders `stream`.
// `site`: the cudaMemcpyAsync call, for the finding of an early access.
void defer_copy_to_host(cudaStream_t stream, void* dst, const void* src, std::size_t bytes,
                        std::source_location site);

// Whether a copy of this kind from `src` to `dst` is deferred (page-locked host source,
// device destination).
bool copy_to_device_is_deferred(void* dst, const void* src, cudaMemcpyKind kind);
// Reads `src` when it lands: before device work that needs `dst`, or at the next
// synchronization that orders `stream`; until then writes into `src` are early accesses.
void defer_copy_to_device(cudaStream_t stream, void* dst, const void* src, std::size_t bytes,
                          std::source_location site);
// Before a launch: every copy to the device lands (its kernel must see the bytes); their
// sources stay watched until the synchronization that orders them.
void land_copies_to_device();
// While a kernel runs (on the host's threads) the sources may be written by it: it is
// ordered after the copies. open_device_sources(true) before, (false) after.
void open_device_sources(bool open);

// A kernel's writes to managed memory (runtime/managed_kernel_writes.hpp): `written`
// holds what the kernel wrote at `dst`, the memory holds the bytes from before the
// launch again; `written` lands like a copy on `stream`, and before any later device work.
void defer_kernel_writes(cudaStream_t stream, void* dst, std::vector<std::byte> written,
                         const char* kernel_name);
// Device work after the kernels so far (a launch, a copy touching their bytes): every
// kernel's pending writes land first.
void complete_kernel_writes();

// Synchronizations. A stream's copies issued so far; for the legacy default stream
// (nullptr), those of every blocking stream (not cudaStreamNonBlocking ones).
void complete_stream_copies(cudaStream_t stream);
// cudaDeviceSynchronize and what synchronizes the device: every stream's copies.
void complete_all_copies();
// For events: a position in the order of issued copies, and completing a stream's
// copies issued before it.
std::uint64_t copies_issued();
void complete_stream_copies_before(cudaStream_t stream, std::uint64_t issued);
// cudaStreamWaitEvent(waiter, event recorded on `source` when `issued` copies had been
// issued): synchronizing `waiter` after this (the stream, or an event recorded on it
// later) also lands those copies of `source`, as a GPU's dependency orders them.
void wait_for_stream(cudaStream_t waiter, cudaStream_t source, std::uint64_t issued);
// Stream order for later copies: completes every pending copy whose destination
// overlaps [pointer, pointer + bytes) (a copy reading or overwriting those host bytes
// comes after it), or a copy to the device's source; a copy to the device whose
// destination overlaps lands (device work on it sees its bytes).
void complete_copies_touching(const void* pointer, std::size_t bytes);

// For the SIGSEGV handler (no allocation): a fault at `address` in the pages of a
// pending copy's destination, or of a pending copy to the device's source.
enum class PendingPageFault {
  none,     // not such a page: the fault is someone else's
  early,    // the bytes of a pending copy: recorded, the copy no longer watched; retry
  neighbour // other bytes on such a page: `page` is accessible now; step one
            // instruction, then call reprotect_pending_page(page)
};
// `capture_frames(frames, max)` gives the access's callers, only for an early access.
using CaptureFrames = int (*)(void** frames, int max);
PendingPageFault on_pending_page_fault(std::uintptr_t address, bool write, const void* pc,
                                       CaptureFrames capture_frames, std::uintptr_t& page);
void reprotect_pending_page(std::uintptr_t page);

}  // namespace parlab_sim::detail
