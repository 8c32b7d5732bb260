#pragma once
// Streams and events. The simulator runs every kernel and copy to completion when it
// is issued, so streams are trivially in order and an event's time is the host clock
// at cudaEventRecord (which, after a synchronous kernel, is its completion time).
#include "parlab_sim/errors.hpp"

typedef struct CUstream_st* cudaStream_t;
typedef struct CUevent_st* cudaEvent_t;

#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaEventInterprocess 0x04

cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
// A host function run after the stream's earlier work (its pending copies back land
// first), on the calling thread before the call returns (a GPU runs it later, on a
// thread of the driver).
typedef void (*cudaHostFn_t)(void* user_data);
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void* user_data);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t function, void* user_data);
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void* user_data, unsigned int flags);

cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);

namespace parlab_sim::detail {
// True for the default stream (0, cudaStreamLegacy, cudaStreamPerThread) and for
// streams created and not yet destroyed.
bool is_valid_stream(cudaStream_t stream);
// 0, cudaStreamLegacy or cudaStreamPerThread.
bool is_default_stream(cudaStream_t stream);
// Whether the legacy default stream synchronizes with it: the default streams and
// streams created without cudaStreamNonBlocking (a destroyed handle: true).
bool is_blocking_stream(cudaStream_t stream);
// The stream's creation number (1, 2, ...), 0 for a default stream: findings name it.
unsigned int stream_number(cudaStream_t stream);
}  // namespace parlab_sim::detail
