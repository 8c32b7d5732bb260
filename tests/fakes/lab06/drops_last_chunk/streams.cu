// Fake lab06 submission (tests/e2e/lab06_sim.sh): correct, except that the pipeline
// runs n / chunk whole chunks and forgets the short last one, so the tail of host_out
// is never written when chunk does not divide n.
#include <algorithm>
#include <vector>

#include "api.hpp"

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
  (cudaMemcpy(d_in, host_in, bytes, cudaMemcpyHostToDevice));
  transform(d_in, d_out, n, iterations, 0);
  (cudaMemcpy(host_out, d_out, bytes, cudaMemcpyDeviceToHost));
}

void pipelined(const float* host_in, float* host_out, float* d_in, float* d_out,
               std::int64_t n, int iterations, int streams, std::int64_t chunk) {
  // Non-blocking: they need not wait for the legacy default stream, nor it for them.
  std::vector<cudaStream_t> s(static_cast<std::size_t>(streams));
  for (cudaStream_t& stream : s) {
    (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  }
  for (std::int64_t c = 0; c < n / chunk; ++c) {  // the bug: the short last chunk is lost
    const std::int64_t offset = c * chunk, count = chunk;
    const std::size_t bytes = static_cast<std::size_t>(count) * sizeof(float);
    cudaStream_t stream = s[static_cast<std::size_t>(c % streams)];
    (cudaMemcpyAsync(d_in + offset, host_in + offset, bytes,
                                      cudaMemcpyHostToDevice, stream));
    transform(d_in + offset, d_out + offset, count, iterations, stream);
    (cudaMemcpyAsync(host_out + offset, d_out + offset, bytes,
                                      cudaMemcpyDeviceToHost, stream));
  }
  for (cudaStream_t stream : s) {
    (cudaStreamSynchronize(stream));
    (cudaStreamDestroy(stream));
  }
}

}  // namespace lab06
