// Fake lab05 submission: the two halves of each block wait at two different
// __syncthreads() calls. CUDA allows a barrier in conditional code only when the
// condition is the same for the whole block; the simulator must report the deadlock
// instead of hanging or passing by luck.
#include "api.hpp"

constexpr int kTile = 16;

__global__ void tiled_divergent_barrier(const float* A, const float* B, float* C, int M, int N,
                                        int K) {
  __shared__ float a[kTile][kTile];
  __shared__ float b[kTile][kTile];
  int row = blockIdx.y * kTile + threadIdx.y;
  int col = blockIdx.x * kTile + threadIdx.x;
  float acc = 0;
  for (int t = 0; t < (K + kTile - 1) / kTile; ++t) {
    int ka = t * kTile + threadIdx.x, kb = t * kTile + threadIdx.y;
    a[threadIdx.y][threadIdx.x] = row < M && ka < K ? A[row * K + ka] : 0.0f;
    b[threadIdx.y][threadIdx.x] = kb < K && col < N ? B[kb * N + col] : 0.0f;
    if (threadIdx.x < kTile / 2) {
      __syncthreads();
    } else {
      __syncthreads();
    }
    for (int p = 0; p < kTile; ++p) acc += a[threadIdx.y][p] * b[p][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

namespace lab05 {
void sgemm_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 block(kTile, kTile);
  dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  tiled_divergent_barrier<<<grid, block>>>(A, B, C, M, N, K);
}
void sgemm_naive(const float* A, const float* B, float* C, int M, int N, int K) {
  sgemm_tiled(A, B, C, M, N, K);
}
}  // namespace lab05
