#pragma once
// A CUDA runtime with a virtual device clock, for testing the harness's GPU timing
// without a GPU: the subset gpu_timing.hpp and cuda_check.hpp call, plus controls a test
// uses to launch "kernels" of a given duration on a stream. Streams keep their own
// timelines as on a GPU: the legacy default stream waits for blocking streams, never for
// cudaStreamNonBlocking ones; an event recorded on the default stream stamps its time.
// The persisting-L2 model: a kernel run while persisting lines are kept is faster.
// Device memory up to 64 MiB is host memory (a test's "kernel" reads and writes it
// directly; copies are memcpy); larger buffers (the L2 flush's) are tokens no one reads.
#include <cstddef>

enum cudaError_t { cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorUnsupportedLimit = 215 };
enum cudaLimit { cudaLimitPersistingL2CacheSize = 0x06 };
enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3 };
#define cudaStreamNonBlocking 0x01

struct FakeStream;
struct FakeEvent;
using cudaStream_t = FakeStream*;
using cudaEvent_t = FakeEvent*;

struct cudaDeviceProp {
  int l2CacheSize;
  int persistingL2CacheMaxSize;
};

const char* cudaGetErrorName(cudaError_t error);
const char* cudaGetErrorString(cudaError_t error);
cudaError_t cudaGetLastError();
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaMalloc(void** pointer, std::size_t bytes);
cudaError_t cudaFree(void* pointer);
cudaError_t cudaMemset(void* pointer, int value, std::size_t bytes);
cudaError_t cudaMemcpy(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaDeviceSetLimit(cudaLimit limit, std::size_t value);
cudaError_t cudaCtxResetPersistingL2Cache();

namespace fake_cuda {
struct Device {
  int l2_bytes = 50 << 20;
  int persisting_max_bytes = 0;  // 0: a GPU without persisting L2 lines
  double memset_bytes_per_second = 2e12;
};
// Starts a fresh device (timelines at 0, no streams, no errors).
void reset(Device device);
// A kernel of `seconds` on `stream`; with `uses_persisting_lines`, it takes a quarter of
// that when the persisting limit is above 0 and lines kept by an earlier such kernel are
// still there (what a cudaAccessPolicyWindow gives a kernel that re-reads its input).
void launch(cudaStream_t stream, double seconds, bool uses_persisting_lines = false);
// The most bytes one cudaMemset has written since reset().
std::size_t largest_memset();
// The bytes all cudaMalloc calls have asked for since reset().
std::size_t bytes_allocated();
}  // namespace fake_cuda
