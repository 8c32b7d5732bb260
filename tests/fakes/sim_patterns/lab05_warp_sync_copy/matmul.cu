// Fake lab05 matmul.cu: the tiled kernel with its tiles staged the
// warp-synchronous way (the shape of the SGEMM tutorials' copies): warp 0 copies the
// padded A tile, warp 1 the padded B tile, each lane a strided share with a
// __syncwarp() after every element; the other warps go straight to __syncthreads().
// A padded tile has 16 x 17 = 272 elements, so lanes 0..15 of the copying warps make a
// 9th round while lanes 16..31 already wait at the __syncthreads(). Correct on a GPU
// since Volta; the simulator must not call it a deadlock. The naive kernel is the
// reference's.
#include "api.hpp"

namespace {

constexpr int kTile = 16;
constexpr int kPadded = kTile + 1;  // a padding column: no bank conflicts down a column

__global__ void sgemm_naive_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                   float* __restrict__ C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (int p = 0; p < K; ++p) acc += A[row * K + p] * B[p * N + col];
  C[row * N + col] = acc;
}

__global__ void sgemm_tiled_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                   float* __restrict__ C, int M, int N, int K) {
  __shared__ float As[kTile][kPadded];
  __shared__ float Bs[kTile][kPadded];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int linear = ty * kTile + tx;
  const int warp = linear / 32, lane = linear % 32;
  const int row = blockIdx.y * kTile + ty;
  const int col = blockIdx.x * kTile + tx;
  float acc = 0.0f;
  for (int t = 0; t < K; t += kTile) {
    if (warp == 0) {
      for (int e = lane; e < kTile * kPadded; e += 32) {
        const int r = e / kPadded, c = e % kPadded;
        const int a_row = blockIdx.y * kTile + r, a_col = t + c;
        As[r][c] = (c < kTile && a_row < M && a_col < K) ? A[a_row * K + a_col] : 0.0f;
        __syncwarp();
      }
    } else if (warp == 1) {
      for (int e = lane; e < kTile * kPadded; e += 32) {
        const int r = e / kPadded, c = e % kPadded;
        const int b_row = t + r, b_col = blockIdx.x * kTile + c;
        Bs[r][c] = (c < kTile && b_row < K && b_col < N) ? B[b_row * N + b_col] : 0.0f;
        __syncwarp();
      }
    }
    __syncthreads();  // both tiles are staged
    for (int p = 0; p < kTile; ++p) acc += As[ty][p] * Bs[p][tx];
    __syncthreads();  // everyone is done with them
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
