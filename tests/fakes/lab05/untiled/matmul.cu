// Fake lab05 submission: the "tiled" kernel is the naive one (the reference's naive
// kernel, launched for both). Right answers; every thread reads 2k floats from global
// memory where a 16x16 tile reads 2k/16. In sim mode the counter check that stands in
// for "data reuse" must take its points, with both counts in the message.
#include "api.hpp"

namespace {

constexpr int kTile = 16;

// Thread (x, y) of the grid computes C[y][x]. threadIdx.x runs along a row of C, so the
// 32 threads of a warp read 32 consecutive elements of B (coalesced) and the same
// element of A (a broadcast).
__global__ void sgemm_naive_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                   float* __restrict__ C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (int p = 0; p < K; ++p) acc += A[row * K + p] * B[p * N + col];
  C[row * N + col] = acc;
}

dim3 grid_for(int M, int N) { return dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile); }

}  // namespace

namespace lab05 {

void sgemm_naive(const float* A, const float* B, float* C, int M, int N, int K) {
  sgemm_naive_kernel<<<grid_for(M, N), dim3(kTile, kTile)>>>(A, B, C, M, N, K);
}

void sgemm_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  sgemm_naive_kernel<<<grid_for(M, N), dim3(kTile, kTile)>>>(A, B, C, M, N, K);  // untiled
}

}  // namespace lab05
