// Fake lab06 submission (issue 30, item 2): the reference, except that the pipeline
// does not synchronize its last stream before returning, so that stream's copies back
// (its chunks of host_out) may still be in flight when the caller reads host_out. On a
// GPU the caller sees stale data for them (or not: it races the copy engine); in sim
// they are pending until a synchronization: stale, and a finding naming the copy.
#include <algorithm>
#include <vector>

#include "api.hpp"
#include "parlab/harness/gpu/cuda_check.hpp"

namespace {

constexpr int kBlock = 256;

__global__ void damped_kernel(const float* in, float* out, std::int64_t n, int iterations) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const float x = in[i];
  float y = 0.0f;
  for (int k = 0; k < iterations; ++k) y = fmaf(lab06::kDecay, y, x);
  out[i] = y;
}

}  // namespace

namespace lab06 {

void transform(const float* d_in, float* d_out, std::int64_t n, int iterations,
               cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>((n + kBlock - 1) / kBlock);
  damped_kernel<<<blocks, kBlock, 0, stream>>>(d_in, d_out, n, iterations);
}

void round_trip(const float* host_in, float* host_out, float* d_in, float* d_out,
                std::int64_t n, int iterations) {
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
  PARLAB_CUDA_CHECK(cudaMemcpy(d_in, host_in, bytes, cudaMemcpyHostToDevice));
  transform(d_in, d_out, n, iterations, 0);
  PARLAB_CUDA_CHECK(cudaMemcpy(host_out, d_out, bytes, cudaMemcpyDeviceToHost));
}

void pipelined(const float* host_in, float* host_out, float* d_in, float* d_out,
               std::int64_t n, int iterations, int streams, std::int64_t chunk) {
  // Non-blocking: they need not wait for the legacy default stream, nor it for them.
  std::vector<cudaStream_t> s(static_cast<std::size_t>(streams));
  for (cudaStream_t& stream : s) {
    PARLAB_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  }
  std::int64_t c = 0;
  for (std::int64_t offset = 0; offset < n; offset += chunk, ++c) {
    const std::int64_t count = std::min(chunk, n - offset);
    const std::size_t bytes = static_cast<std::size_t>(count) * sizeof(float);
    cudaStream_t stream = s[static_cast<std::size_t>(c % streams)];
    PARLAB_CUDA_CHECK(cudaMemcpyAsync(d_in + offset, host_in + offset, bytes,
                                      cudaMemcpyHostToDevice, stream));
    transform(d_in + offset, d_out + offset, count, iterations, stream);
    PARLAB_CUDA_CHECK(cudaMemcpyAsync(host_out + offset, d_out + offset, bytes,
                                      cudaMemcpyDeviceToHost, stream));
  }
  for (cudaStream_t stream : s) {
    if (stream != s.back()) PARLAB_CUDA_CHECK(cudaStreamSynchronize(stream));  // the bug
    PARLAB_CUDA_CHECK(cudaStreamDestroy(stream));
  }
}

}  // namespace lab06
