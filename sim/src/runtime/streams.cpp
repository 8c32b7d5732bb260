// Streams: kernels and most copies complete when they are issued, so a stream is a
// handle that must be valid; synchronizing it lands its pending asynchronous copies
// into page-locked host memory (copies/deferred_copies.hpp). Its flags say whether the
// legacy default stream waits for it (cudaStreamNonBlocking: it does not).
#include <atomic>

#include "parlab_sim/streams_events.hpp"
#include "copies/deferred_copies.hpp"
#include "runtime/device_context.hpp"

struct CUstream_st {
  unsigned int flags = 0;
  unsigned int number = 0;  // 1 for the first stream created, ... (findings name it)
};

namespace parlab_sim::detail {
namespace {
HandleRegistry<CUstream_st>& streams() { return device_context().streams; }
}  // namespace

bool is_valid_stream(cudaStream_t stream) {
  return stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread ||
         streams().contains(stream);
}

bool is_default_stream(cudaStream_t stream) {
  return stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread;
}

bool is_blocking_stream(cudaStream_t stream) {
  if (is_default_stream(stream)) return true;
  bool blocking = true;
  streams().with(stream, [&](CUstream_st& s) { blocking = (s.flags & cudaStreamNonBlocking) == 0; });
  return blocking;
}

unsigned int stream_number(cudaStream_t stream) {
  unsigned int number = 0;
  if (!is_default_stream(stream)) streams().with(stream, [&](CUstream_st& s) { number = s.number; });
  return number;
}

}  // namespace parlab_sim::detail

using parlab_sim::detail::is_valid_stream;
using parlab_sim::detail::record_error;

cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, 0); }

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  if (stream == nullptr || (flags & ~cudaStreamNonBlocking) != 0) {
    return record_error(cudaErrorInvalidValue);
  }
  *stream = parlab_sim::detail::streams().create();
  (*stream)->flags = flags;
  (*stream)->number = ++parlab_sim::detail::device_context().streams_created;
  return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  if (stream == nullptr || !parlab_sim::detail::streams().destroy(stream)) {
    return record_error(cudaErrorInvalidResourceHandle);
  }
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  if (!is_valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  parlab_sim::detail::complete_stream_copies(stream);
  return cudaSuccess;
}

// "Done" (cudaSuccess) says every copy of the stream has landed: make it so.
cudaError_t cudaStreamQuery(cudaStream_t stream) {
  if (!is_valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  parlab_sim::detail::complete_stream_copies(stream);
  return cudaSuccess;
}

// cudaStreamWaitEvent is in events.cpp (it reads the event's stream and position).

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t function, void* user_data) {
  if (!is_valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  if (function == nullptr) return record_error(cudaErrorInvalidValue);
  parlab_sim::detail::complete_stream_copies(stream);  // it may read what they bring back
  function(user_data);
  return cudaSuccess;
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void* user_data, unsigned int flags) {
  if (!is_valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  if (callback == nullptr || flags != 0) return record_error(cudaErrorInvalidValue);
  parlab_sim::detail::complete_stream_copies(stream);
  callback(stream, cudaSuccess, user_data);
  return cudaSuccess;
}
