// Fake lab06 streams.cu (sim_patterns, docs/simulation.md "Agreement with a GPU"): the
// transfers in shapes public CUDA code (CUDA by Example's streams chapter, NVIDIA's
// "overlap data transfers" post) uses, correct on a GPU:
//   - transform: a grid-stride loop, sized from cudaGetDeviceProperties, with the
//     inner loop `#pragma unroll 4`;
//   - round_trip: a staging buffer from cudaHostAlloc for the copy in, cudaMemcpyAsync
//     on a stream created with cudaStreamCreateWithFlags(cudaStreamNonBlocking), an
//     event recorded after the copy back, cudaEventSynchronize, cudaEventElapsedTime;
//   - pipelined: one stream per slot, each chunk's copies and kernel on its stream,
//     cudaStreamWaitEvent ordering the first chunk after an event on stream 0, and a
//     join instead of per-stream synchronization: one more stream waits (cudaStreamWaitEvent)
//     for an event recorded after each stream's work, and only it is synchronized (the
//     simulator used to land only the synchronized stream's copies back: stale chunks).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "api.hpp"

#define CUDA_CHECK(call)                                                                  \
  do {                                                                                    \
    const cudaError_t err_ = (call);                                                      \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, \
                   __LINE__);                                                             \
      std::exit(EXIT_FAILURE);                                                            \
    }                                                                                     \
  } while (0)

namespace {

__global__ void damped_kernel(const float* __restrict__ in, float* __restrict__ out,
                              std::int64_t n, int iterations) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(blockDim.x) * gridDim.x) {
    const float x = in[i];
    float y = 0.0f;
#pragma unroll 4
    for (int k = 0; k < iterations; ++k) y = fmaf(lab06::kDecay, y, x);
    out[i] = y;
  }
}

}  // namespace

namespace lab06 {

void transform(const float* d_in, float* d_out, std::int64_t n, int iterations,
               cudaStream_t stream) {
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  const int threads = 256;
  const std::int64_t wanted = (n + threads - 1) / threads;
  const int blocks = static_cast<int>(std::min<std::int64_t>(wanted, 32LL * prop.multiProcessorCount));
  damped_kernel<<<blocks, threads, 0, stream>>>(d_in, d_out, n, iterations);
}

void round_trip(const float* host_in, float* host_out, float* d_in, float* d_out,
                std::int64_t n, int iterations) {
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  float* staging = nullptr;
  CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&staging), bytes, cudaHostAllocDefault));
  std::memcpy(staging, host_in, bytes);
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaEvent_t start, done;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&done));
  CUDA_CHECK(cudaEventRecord(start, stream));
  CUDA_CHECK(cudaMemcpyAsync(d_in, staging, bytes, cudaMemcpyHostToDevice, stream));
  transform(d_in, d_out, n, iterations, stream);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpyAsync(staging, d_out, bytes, cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaEventRecord(done, stream));
  CUDA_CHECK(cudaEventSynchronize(done));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, done));
  std::memcpy(host_out, staging, bytes);
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(done));
  CUDA_CHECK(cudaStreamDestroy(stream));
  CUDA_CHECK(cudaFreeHost(staging));
}

void pipelined(const float* host_in, float* host_out, float* d_in, float* d_out,
               std::int64_t n, int iterations, int streams, std::int64_t chunk) {
  std::vector<cudaStream_t> stream(static_cast<std::size_t>(streams));
  for (auto& s : stream) CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t ready;
  CUDA_CHECK(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));
  CUDA_CHECK(cudaEventRecord(ready, 0));
  std::int64_t c = 0;
  for (std::int64_t offset = 0; offset < n; offset += chunk, ++c) {
    const std::int64_t count = std::min(chunk, n - offset);
    const std::size_t bytes = static_cast<std::size_t>(count) * sizeof(float);
    cudaStream_t s = stream[static_cast<std::size_t>(c % streams)];
    if (c < streams) CUDA_CHECK(cudaStreamWaitEvent(s, ready, 0));
    CUDA_CHECK(cudaMemcpyAsync(d_in + offset, host_in + offset, bytes, cudaMemcpyHostToDevice, s));
    transform(d_in + offset, d_out + offset, count, iterations, s);
    CUDA_CHECK(cudaMemcpyAsync(host_out + offset, d_out + offset, bytes, cudaMemcpyDeviceToHost, s));
  }
  // Join: a last stream waits for an event after each stream's work; synchronizing it
  // is enough (the streams' copies back come before their events).
  cudaStream_t join;
  CUDA_CHECK(cudaStreamCreateWithFlags(&join, cudaStreamNonBlocking));
  std::vector<cudaEvent_t> done(stream.size());
  for (std::size_t i = 0; i < stream.size(); ++i) {
    CUDA_CHECK(cudaEventCreateWithFlags(&done[i], cudaEventDisableTiming));
    CUDA_CHECK(cudaEventRecord(done[i], stream[i]));
    CUDA_CHECK(cudaStreamWaitEvent(join, done[i], 0));
  }
  CUDA_CHECK(cudaStreamSynchronize(join));
  for (cudaEvent_t e : done) CUDA_CHECK(cudaEventDestroy(e));
  CUDA_CHECK(cudaEventDestroy(ready));
  CUDA_CHECK(cudaStreamDestroy(join));
  for (auto& s : stream) CUDA_CHECK(cudaStreamDestroy(s));
}

}  // namespace lab06
