// Fake lab05 submission: the classic mistake, no `if (row < M && col < N)` test.
// Threads of the last blocks read and write past the end of the arrays; the
// simulator must stop it with an out-of-bounds report naming the kernel.
#include "api.hpp"

__global__ void naive_no_bounds(const float* A, const float* B, float* C, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0;
  for (int p = 0; p < K; ++p) acc += A[row * K + p] * B[p * N + col];
  C[row * N + col] = acc;
}

namespace lab05 {
void sgemm_naive(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 block(16, 16);
  dim3 grid((N + 15) / 16, (M + 15) / 16);
  naive_no_bounds<<<grid, block>>>(A, B, C, N, K);
}
void sgemm_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  sgemm_naive(A, B, C, M, N, K);
}
}  // namespace lab05
