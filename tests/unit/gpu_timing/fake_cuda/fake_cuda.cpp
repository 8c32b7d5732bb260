// The virtual-clock CUDA runtime of fake_cuda/cuda_runtime.h.
#include "cuda_runtime.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

struct FakeStream {
  unsigned int flags = 0;
  double busy_until = 0;
};
struct FakeEvent {
  double time = 0;
  bool recorded = false;
};

namespace {
struct State {
  fake_cuda::Device device;
  FakeStream legacy;  // the legacy default stream (nullptr)
  std::vector<std::unique_ptr<FakeStream>> streams;
  double host_now = 0;
  std::size_t persisting_limit = 0;
  bool persisting_lines_kept = false;
  std::size_t largest_memset = 0;
  std::size_t bytes_allocated = 0;
  cudaError_t last_error = cudaSuccess;
};
State& state() {
  static State s;
  return s;
}
FakeStream& resolve(cudaStream_t stream) { return stream == nullptr ? state().legacy : *stream; }
// When work issued now on `stream` can start: after the host issued it, after the
// stream's earlier work, and on the legacy default stream after every blocking stream.
double start_time(FakeStream& s) {
  double start = std::max(state().host_now, s.busy_until);
  if (&s == &state().legacy) {
    for (auto& other : state().streams) {
      if ((other->flags & cudaStreamNonBlocking) == 0) start = std::max(start, other->busy_until);
    }
  } else if ((s.flags & cudaStreamNonBlocking) == 0) {
    start = std::max(start, state().legacy.busy_until);
  }
  return start;
}
cudaError_t fail(cudaError_t error) {
  state().last_error = error;
  return error;
}
}  // namespace

namespace fake_cuda {
void reset(Device device) {
  state() = State{};
  state().device = device;
}
void launch(cudaStream_t stream, double seconds, bool uses_persisting_lines) {
  FakeStream& s = resolve(stream);
  const bool fast = uses_persisting_lines && state().persisting_limit > 0 && state().persisting_lines_kept;
  s.busy_until = start_time(s) + (fast ? seconds / 4 : seconds);
  if (uses_persisting_lines && state().persisting_limit > 0) state().persisting_lines_kept = true;
}
std::size_t largest_memset() { return state().largest_memset; }
std::size_t bytes_allocated() { return state().bytes_allocated; }
}  // namespace fake_cuda

const char* cudaGetErrorName(cudaError_t error) {
  return error == cudaSuccess ? "cudaSuccess" : "cudaErrorFake";
}
const char* cudaGetErrorString(cudaError_t error) {
  return error == cudaSuccess ? "no error" : "a fake error";
}
cudaError_t cudaGetLastError() { return std::exchange(state().last_error, cudaSuccess); }
cudaError_t cudaGetDevice(int* device) {
  *device = 0;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int) {
  prop->l2CacheSize = state().device.l2_bytes;
  prop->persistingL2CacheMaxSize = state().device.persisting_max_bytes;
  return cudaSuccess;
}
cudaError_t cudaDeviceSynchronize() {
  double end = state().legacy.busy_until;
  for (auto& s : state().streams) end = std::max(end, s->busy_until);
  state().host_now = std::max(state().host_now, end);
  return cudaSuccess;
}
// Buffers up to this size are real host memory; larger ones (the flush's) are tokens.
constexpr std::size_t kBacked = std::size_t{64} << 20;

cudaError_t cudaMalloc(void** pointer, std::size_t bytes) {
  state().bytes_allocated += bytes;
  *pointer = bytes <= kBacked ? std::calloc(bytes == 0 ? 1 : bytes, 1) : std::malloc(64);
  return cudaSuccess;
}
cudaError_t cudaFree(void* pointer) {
  std::free(pointer);
  return cudaSuccess;
}
cudaError_t cudaMemset(void* pointer, int value, std::size_t bytes) {
  if (bytes <= kBacked) std::memset(pointer, value, bytes);
  // The flush's buffer is as large as the L2: only its time and size are modelled.
  state().largest_memset = std::max(state().largest_memset, bytes);
  fake_cuda::launch(nullptr, static_cast<double>(bytes) / state().device.memset_bytes_per_second);
  return cudaSuccess;
}
cudaError_t cudaMemcpy(void* to, const void* from, std::size_t bytes, cudaMemcpyKind) {
  std::memcpy(to, from, bytes);
  return cudaSuccess;
}
cudaError_t cudaEventCreate(cudaEvent_t* event) {
  *event = new FakeEvent;
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete event;
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  FakeStream& s = resolve(stream);
  event->time = start_time(s);
  s.busy_until = event->time;
  event->recorded = true;
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  state().host_now = std::max(state().host_now, event->time);
  return cudaSuccess;
}
cudaError_t cudaEventElapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end) {
  if (!start->recorded || !end->recorded) return fail(cudaErrorInvalidValue);
  *milliseconds = static_cast<float>((end->time - start->time) * 1e3);
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  state().streams.push_back(std::make_unique<FakeStream>());
  state().streams.back()->flags = flags;
  *stream = state().streams.back().get();
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }  // freed at reset()
cudaError_t cudaDeviceSetLimit(cudaLimit limit, std::size_t value) {
  if (limit != cudaLimitPersistingL2CacheSize) return fail(cudaErrorInvalidValue);
  if (state().device.persisting_max_bytes == 0) return fail(cudaErrorUnsupportedLimit);
  state().persisting_limit = value;
  return cudaSuccess;
}
cudaError_t cudaCtxResetPersistingL2Cache() {
  state().persisting_lines_kept = false;
  return cudaSuccess;
}
