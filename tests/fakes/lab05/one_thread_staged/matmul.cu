// Fake lab05 submission: the "tiled" kernel is one thread. It computes C in 32 x 32 blocks,
// staging chunks of 8 of K from A and B in its own local arrays: each input is loaded
// once per block of C, 64 global loads per element of C on the check's 32 x 32 x 1031,
// half the reference tile's 128.9. Right answers; on a GPU one lane of thousands runs
// (the speed tests); in sim the data-reuse check must not credit it: every request is
// one thread's where the reference's warps are full.
#include "api.hpp"

namespace {

constexpr int kTile = 16;
constexpr int kRb = 32;
constexpr int kKc = 8;

__global__ void sgemm_naive_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                   float* __restrict__ C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (int p = 0; p < K; ++p) acc += A[row * K + p] * B[p * N + col];
  C[row * N + col] = acc;
}

__global__ void one_thread_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                  float* __restrict__ C, int M, int N, int K) {
  float acc[kRb][kRb];
  float a[kRb][kKc];
  float b[kKc][kRb];
  for (int r0 = 0; r0 < M; r0 += kRb) {
    for (int c0 = 0; c0 < N; c0 += kRb) {
      for (int i = 0; i < kRb; ++i)
        for (int j = 0; j < kRb; ++j) acc[i][j] = 0.0f;
      for (int k0 = 0; k0 < K; k0 += kKc) {
        for (int i = 0; i < kRb; ++i)
          for (int p = 0; p < kKc; ++p)
            a[i][p] = (r0 + i < M && k0 + p < K) ? A[(r0 + i) * K + k0 + p] : 0.0f;
        for (int p = 0; p < kKc; ++p)
          for (int j = 0; j < kRb; ++j)
            b[p][j] = (k0 + p < K && c0 + j < N) ? B[(k0 + p) * N + c0 + j] : 0.0f;
        for (int i = 0; i < kRb; ++i)
          for (int p = 0; p < kKc; ++p)
            for (int j = 0; j < kRb; ++j) acc[i][j] += a[i][p] * b[p][j];
      }
      for (int i = 0; i < kRb; ++i)
        for (int j = 0; j < kRb; ++j)
          if (r0 + i < M && c0 + j < N) C[(r0 + i) * N + c0 + j] = acc[i][j];
    }
  }
}

dim3 grid_for(int M, int N) { return dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile); }

}  // namespace

namespace lab05 {

void sgemm_naive(const float* A, const float* B, float* C, int M, int N, int K) {
  sgemm_naive_kernel<<<grid_for(M, N), dim3(kTile, kTile)>>>(A, B, C, M, N, K);
}

void sgemm_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  one_thread_kernel<<<1, 1>>>(A, B, C, M, N, K);
}

}  // namespace lab05
