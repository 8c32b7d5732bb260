// Fake lab05 submission: the whole tile loop, loads and __syncthreads() included,
// inside `if (row < M && col < N)`. Threads of an edge tile outside C exit without
// loading their element of the shared tiles (Volta and later let the others pass the
// barrier), so the tile holds stale values: wrong results on sizes that are not
// multiples of 16, right ones on full tiles, in the simulator as on a GPU.
#include "api.hpp"

constexpr int kTile = 16;

__global__ void tiled_barrier_in_branch(const float* A, const float* B, float* C, int M, int N,
                                        int K) {
  __shared__ float a[kTile][kTile];
  __shared__ float b[kTile][kTile];
  int row = blockIdx.y * kTile + threadIdx.y;
  int col = blockIdx.x * kTile + threadIdx.x;
  if (row < M && col < N) {
    float acc = 0;
    for (int t = 0; t < (K + kTile - 1) / kTile; ++t) {
      int ka = t * kTile + threadIdx.x, kb = t * kTile + threadIdx.y;
      a[threadIdx.y][threadIdx.x] = ka < K ? A[row * K + ka] : 0.0f;
      b[threadIdx.y][threadIdx.x] = kb < K ? B[kb * N + col] : 0.0f;
      __syncthreads();
      for (int p = 0; p < kTile; ++p) acc += a[threadIdx.y][p] * b[p][threadIdx.x];
      __syncthreads();
    }
    C[row * N + col] = acc;
  }
}

namespace lab05 {
void sgemm_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 block(kTile, kTile);
  dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  tiled_barrier_in_branch<<<grid, block>>>(A, B, C, M, N, K);
}
void sgemm_naive(const float* A, const float* B, float* C, int M, int N, int K) {
  sgemm_tiled(A, B, C, M, N, K);
}
}  // namespace lab05
