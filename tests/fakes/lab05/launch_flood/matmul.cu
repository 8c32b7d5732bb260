// A fake: the untiled kernel, behind 300 one-thread launches at the first call, which once
// pushed its counts past the runtime's 256 lines: it must score as lab05/untiled does.
#include "api.hpp"

namespace {
__global__ void warm(const float* A, float* sink) { if (threadIdx.x == 0) sink[0] = A[0]; }
__global__ void naive(const float* A, const float* B, float* C, int M, int N, int K) {
  int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= M || c >= N) return;
  float s = 0;
  for (int k = 0; k < K; ++k) s += A[r * K + k] * B[k * N + c];
  C[r * N + c] = s;
}
void run(const float* A, const float* B, float* C, int M, int N, int K) {
  static bool warmed = false;
  if (!warmed) {
    warmed = true;
    float* sink = nullptr;
    cudaMalloc(&sink, 4);
    for (int i = 0; i < 300; ++i) warm<<<1, 1>>>(A, sink);
    cudaFree(sink);
  }
  dim3 block(16, 16), grid((N + 15) / 16, (M + 15) / 16);
  naive<<<grid, block>>>(A, B, C, M, N, K);
}
}  // namespace

namespace lab05 {
void sgemm_naive(const float* A, const float* B, float* C, int M, int N, int K) { run(A, B, C, M, N, K); }
void sgemm_tiled(const float* A, const float* B, float* C, int M, int N, int K) { run(A, B, C, M, N, K); }
}  // namespace lab05
