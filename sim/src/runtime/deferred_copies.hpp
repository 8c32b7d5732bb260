#pragma once
// Asynchronous device-to-host copies completing as late as CUDA allows
// (docs/simulation.md, "Streams and events"). A cudaMemcpyAsync from device memory into
// page-locked host memory (cudaMallocHost, cudaHostAlloc, cudaHostRegister) returns on
// a GPU before the bytes arrive; host code that reads them before a synchronization
// that orders the copy (cudaStreamSynchronize, cudaEventSynchronize, cudaDeviceSynchronize,
// a synchronous cudaMemcpy, ...) sees whatever was there before. The simulator takes the
// device bytes when the copy is issued (all earlier work of the stream is done by then)
// and writes them into the host buffer only at such a synchronization, so a missing one
// gives the stale data a GPU would give. Copies into pageable memory are synchronous, as
// on a GPU.
#include <cstddef>
#include <cstdint>

#include "parlab_sim/memory.hpp"
#include "parlab_sim/streams_events.hpp"

namespace parlab_sim::detail {

// Whether a copy of this kind into `dst` is deferred (device source, page-locked host
// destination).
bool copy_is_deferred(void* dst, const void* src, cudaMemcpyKind kind);
// Takes the bytes now; they reach `dst` at the next synchronization that orders `stream`.
void defer_copy_to_host(cudaStream_t stream, void* dst, const void* src, std::size_t bytes);

// Synchronizations. A stream's copies issued so far (the legacy default stream, or
// nullptr: every stream's, as it waits for the blocking streams).
void complete_stream_copies(cudaStream_t stream);
void complete_all_copies();
// For events: a position in the order of issued copies, and completing a stream's
// copies issued before it.
std::uint64_t copies_issued();
void complete_stream_copies_before(cudaStream_t stream, std::uint64_t issued);
// Stream order for later copies: completes every pending copy whose destination
// overlaps [pointer, pointer + bytes) (a copy reading or overwriting those host bytes
// comes after it).
void complete_copies_touching(const void* pointer, std::size_t bytes);

}  // namespace parlab_sim::detail
