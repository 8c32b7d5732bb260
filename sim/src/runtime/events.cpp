// Events: a host steady-clock time taken at cudaEventRecord. Kernels and copies finish
// before the call that issues them returns, so that time is when all prior work in
// the stream completed, as on a GPU.
#include <chrono>

#include "parlab_sim/streams_events.hpp"
#include "copies/deferred_copies.hpp"
#include "runtime/device_context.hpp"

struct CUevent_st {
  unsigned int flags = 0;
  bool recorded = false;
  std::chrono::steady_clock::time_point when{};
  // What synchronizing on it completes: the copies its stream issued before it.
  cudaStream_t stream = nullptr;
  std::uint64_t copies_before = 0;
};

namespace parlab_sim::detail {
namespace {
HandleRegistry<CUevent_st>& events() { return device_context().events; }
}  // namespace
}  // namespace parlab_sim::detail

using parlab_sim::detail::events;
using parlab_sim::detail::record_error;

cudaError_t cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, 0); }

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  constexpr unsigned int known =
      cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
  if (event == nullptr || (flags & ~known) != 0) return record_error(cudaErrorInvalidValue);
  *event = events().create();
  (*event)->flags = flags;
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (!parlab_sim::detail::is_valid_stream(stream)) {
    return record_error(cudaErrorInvalidResourceHandle);
  }
  const auto now = std::chrono::steady_clock::now();
  const std::uint64_t copies = parlab_sim::detail::copies_issued();
  const bool live = events().with(event, [&](CUevent_st& e) {
    e.recorded = true;
    e.when = now;
    e.stream = stream;
    e.copies_before = copies;
  });
  return live ? cudaSuccess : record_error(cudaErrorInvalidResourceHandle);
}

// Waits for the work its stream issued before the record: lands those copies.
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  CUevent_st state;
  if (!events().with(event, [&](CUevent_st& e) { state = e; })) {
    return record_error(cudaErrorInvalidResourceHandle);
  }
  if (state.recorded) parlab_sim::detail::complete_stream_copies_before(state.stream, state.copies_before);
  return cudaSuccess;
}

cudaError_t cudaEventQuery(cudaEvent_t event) { return cudaEventSynchronize(event); }

// The stream's later work waits for the event: synchronizing the stream then also lands
// the copies the event's stream issued before it (a fork/join of streams through events).
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  CUevent_st state;
  if (!parlab_sim::detail::is_valid_stream(stream) || event == nullptr ||
      !events().with(event, [&](CUevent_st& e) { state = e; })) {
    return record_error(cudaErrorInvalidResourceHandle);
  }
  if (flags != 0) return record_error(cudaErrorInvalidValue);
  if (state.recorded) parlab_sim::detail::wait_for_stream(stream, state.stream, state.copies_before);
  return cudaSuccess;
}

cudaError_t cudaEventElapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end) {
  if (milliseconds == nullptr) return record_error(cudaErrorInvalidValue);
  CUevent_st first;
  CUevent_st last;
  const bool live = events().with(start, [&](CUevent_st& e) { first = e; }) &&
                    events().with(end, [&](CUevent_st& e) { last = e; });
  if (!live || !first.recorded || !last.recorded ||
      ((first.flags | last.flags) & cudaEventDisableTiming) != 0) {
    return record_error(cudaErrorInvalidResourceHandle);
  }
  *milliseconds = std::chrono::duration<float, std::milli>(last.when - first.when).count();
  return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  return events().destroy(event) ? cudaSuccess : record_error(cudaErrorInvalidResourceHandle);
}
