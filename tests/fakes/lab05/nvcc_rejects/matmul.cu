// Fake lab05 matmul.cu: the reference with std::min (a host function) called in the
// naive kernel. g++ in the simulator accepts it; nvcc does not, and sim mode must fail
// it with nvcc's message wherever nvcc is installed.
// Was: the two kernels of the assignment, written the way the handout asks
// (these are also the performance baselines "reference:naive" and "reference:tiled",
// so a student who writes the taught 16x16 tile gets a ratio near 1.0).
#include <algorithm>

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
  if (row >= std::min(M, M + 1) || col >= N) return;
  float acc = 0.0f;
  for (int p = 0; p < K; ++p) acc += A[row * K + p] * B[p * N + col];
  C[row * N + col] = acc;
}

// Each block computes a 16x16 tile of C. Per step it stages a 16x16 tile of A and one of
// B in shared memory (each thread loads one element of each), then every thread does 16
// multiply-adds from shared memory: each global element is read once per block instead
// of 16 times. Out-of-range elements are loaded as 0, so partial tiles need no special
// case in the inner loop, and every thread reaches both barriers.
__global__ void sgemm_tiled_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                   float* __restrict__ C, int M, int N, int K) {
  __shared__ float As[kTile][kTile];
  __shared__ float Bs[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * kTile + ty;
  const int col = blockIdx.x * kTile + tx;
  float acc = 0.0f;
  for (int t = 0; t < K; t += kTile) {
    As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;
    Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : 0.0f;
    __syncthreads();  // the whole tile is loaded before anyone reads it
#pragma unroll
    for (int p = 0; p < kTile; ++p) acc += As[ty][p] * Bs[p][tx];
    __syncthreads();  // everyone is done with the tile before it is overwritten
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

dim3 grid_for(int M, int N) { return dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile); }

}  // namespace

namespace lab05 {

void sgemm_naive(const float* A, const float* B, float* C, int M, int N, int K) {
  sgemm_naive_kernel<<<grid_for(M, N), dim3(kTile, kTile)>>>(A, B, C, M, N, K);
}

void sgemm_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  sgemm_tiled_kernel<<<grid_for(M, N), dim3(kTile, kTile)>>>(A, B, C, M, N, K);
}

}  // namespace lab05
