// Fake lab05 matmul.cu (sim_patterns, docs/simulation.md "Agreement with a GPU"): the
// two products in shapes public SGEMM code (blog kernels, course solutions) uses,
// correct on a GPU:
//   - naive: 3-D dim3 blocks (16, 16, 1), fused multiply-adds with __fmaf_rn, __ldg;
//   - tiled: a kernel templated on the tile (`template <int TILE>`, __launch_bounds__),
//     both tiles in one `extern __shared__ float smem[]` sized by the launch's 3rd
//     argument, __forceinline__ __restrict__ helpers for the guarded loads, #pragma
//     unroll, the launch checked with cudaFuncGetAttributes and cudaPeekAtLastError.
#include <cstdio>
#include <cstdlib>

#include "api.hpp"

#define CUDA_CHECK(call)                                                                  \
  do {                                                                                    \
    const cudaError_t err_ = (call);                                                      \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, \
                   __LINE__);                                                             \
      std::exit(EXIT_FAILURE);                                                            \
    }                                                                                     \
  } while (0)

namespace {

constexpr int kTile = 16;

__global__ void sgemm_naive_kernel(const float* __restrict__ A, const float* __restrict__ B,
                                   float* __restrict__ C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int p = 0; p < K; ++p) acc = __fmaf_rn(__ldg(&A[row * K + p]), __ldg(&B[p * N + col]), acc);
    C[row * N + col] = acc;
  }
}

// A[row][p] or 0 past the edge.
__device__ __forceinline__ float load_or_zero(const float* __restrict__ m, int row, int col,
                                              int rows, int cols) {
  return (row < rows && col < cols) ? m[row * cols + col] : 0.0f;
}

template <int TILE>
__global__ void __launch_bounds__(TILE * TILE)
    sgemm_tiled_kernel(const float* __restrict__ A, const float* __restrict__ B,
                       float* __restrict__ C, int M, int N, int K) {
  extern __shared__ float smem[];
  float* As = smem;                // TILE x TILE
  float* Bs = smem + TILE * TILE;  // TILE x TILE
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  const int tiles = (K + TILE - 1) / TILE;
  for (int t = 0; t < tiles; ++t) {
    As[ty * TILE + tx] = load_or_zero(A, row, t * TILE + tx, M, K);
    Bs[ty * TILE + tx] = load_or_zero(B, t * TILE + ty, col, K, N);
    __syncthreads();
#pragma unroll
    for (int p = 0; p < TILE; ++p) acc = fmaf(As[ty * TILE + p], Bs[p * TILE + tx], acc);
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

dim3 grid_for(int M, int N) { return dim3((N + kTile - 1) / kTile, (M + kTile - 1) / kTile, 1); }

}  // namespace

namespace lab05 {

void sgemm_naive(const float* A, const float* B, float* C, int M, int N, int K) {
  const dim3 block(kTile, kTile, 1);
  sgemm_naive_kernel<<<grid_for(M, N), block>>>(A, B, C, M, N, K);
  CUDA_CHECK(cudaGetLastError());
}

void sgemm_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  cudaFuncAttributes attr;
  CUDA_CHECK(cudaFuncGetAttributes(&attr, sgemm_tiled_kernel<kTile>));
  if (attr.maxThreadsPerBlock < kTile * kTile) {
    std::fprintf(stderr, "sgemm_tiled: %d threads per block at most\n", attr.maxThreadsPerBlock);
    std::exit(EXIT_FAILURE);
  }
  const size_t smem = 2 * kTile * kTile * sizeof(float);
  sgemm_tiled_kernel<kTile><<<grid_for(M, N), dim3(kTile, kTile), smem>>>(A, B, C, M, N, K);
  CUDA_CHECK(cudaPeekAtLastError());
}

}  // namespace lab05
