// Fake lab03 kernels.cu (sim_patterns, docs/simulation.md "Agreement with a GPU"): the
// kernels in shapes public CUDA code (blog posts, course solutions) uses, correct on a
// GPU:
//   - vector_add: a grid-stride loop sized by cudaOccupancyMaxPotentialBlockSize;
//   - saxpy: alpha in __constant__ memory (cudaMemcpyToSymbol), __fmaf_rn;
//   - matrix_scale: 3-D dim3 blocks (32, 8, 1), __fmul_rn (the counter-graded
//     bandwidth check: must stay coalesced);
//   - heat_step: a tile with a one-point halo in dynamic shared memory
//     (`extern __shared__ float tile[]`, the launch's 3rd argument);
//   - heat_solve: a non-blocking stream (cudaStreamCreateWithFlags), the change as one
//     float in cudaMallocManaged memory, maximized with atomicMax on its int bits
//     (__float_as_int: non-negative floats order as ints), read on the host after
//     cudaDeviceSynchronize; events timing the loop (cudaEventElapsedTime); the last
//     copy with cudaMemcpyAsync on the stream.
#include <algorithm>
#include <cstdint>
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

namespace lab03 {
namespace {

constexpr int kTileX = 32, kTileY = 8;

__constant__ float c_alpha;

__global__ void vector_add_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                  float* __restrict__ c, int n) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < static_cast<size_t>(n);
       i += static_cast<size_t>(blockDim.x) * gridDim.x) {
    c[i] = a[i] + b[i];
  }
}

__global__ void saxpy_kernel(const float* __restrict__ x, const float* __restrict__ y,
                             float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __fmaf_rn(c_alpha, x[i], y[i]);
}

__global__ void matrix_scale_kernel(float alpha, const float* __restrict__ in,
                                    float* __restrict__ out, int rows, int cols) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) out[row * cols + col] = __fmul_rn(alpha, in[row * cols + col]);
}

// One Jacobi step from a shared tile with a halo of one point on each side. With
// max_change, the largest |new - old| goes into *max_change by atomicMax on its bits.
__global__ void heat_step_kernel(const float* __restrict__ in, float* __restrict__ out, int nx,
                                 int ny, float r, float* max_change) {
  extern __shared__ float tile[];  // (blockDim.x + 2) x (blockDim.y + 2)
  const int w = blockDim.x + 2;
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
  const bool inside = x < nx && y < ny;
  if (inside) {
    const int p = y * nx + x;
    tile[ly * w + lx] = in[p];
    if (threadIdx.x == 0 && x > 0) tile[ly * w] = in[p - 1];
    if (threadIdx.x == blockDim.x - 1 && x + 1 < nx) tile[ly * w + lx + 1] = in[p + 1];
    if (threadIdx.y == 0 && y > 0) tile[lx] = in[p - nx];
    if (threadIdx.y == blockDim.y - 1 && y + 1 < ny) tile[(ly + 1) * w + lx] = in[p + nx];
  }
  __syncthreads();
  if (!inside) return;
  float v = tile[ly * w + lx];
  if (x > 0 && y > 0 && x < nx - 1 && y < ny - 1) {
    const float next = v + r * (tile[ly * w + lx - 1] + tile[ly * w + lx + 1] +
                                tile[(ly - 1) * w + lx] + tile[(ly + 1) * w + lx] - 4.0f * v);
    if (max_change != nullptr) atomicMax(reinterpret_cast<int*>(max_change), __float_as_int(fabsf(next - v)));
    v = next;
  }
  out[y * nx + x] = v;
}

dim3 grid_2d(int cols, int rows) {
  return dim3((cols + kTileX - 1) / kTileX, (rows + kTileY - 1) / kTileY, 1);
}
size_t halo_bytes() { return (kTileX + 2) * (kTileY + 2) * sizeof(float); }

}  // namespace

void vector_add(const float* a, const float* b, float* c, int n) {
  int min_grid = 0;
  int block = 0;
  CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, vector_add_kernel, 0, 0));
  const int grid = std::min((n + block - 1) / block, min_grid);
  vector_add_kernel<<<grid, block>>>(a, b, c, n);
  CUDA_CHECK(cudaGetLastError());
}

void saxpy(float alpha, const float* x, const float* y, float* out, int n) {
  CUDA_CHECK(cudaMemcpyToSymbol(c_alpha, &alpha, sizeof(float)));
  saxpy_kernel<<<(n + 255) / 256, 256>>>(x, y, out, n);
  CUDA_CHECK(cudaGetLastError());
}

void matrix_scale(float alpha, const float* in, float* out, int rows, int cols) {
  const dim3 block(kTileX, kTileY, 1);
  matrix_scale_kernel<<<grid_2d(cols, rows), block>>>(alpha, in, out, rows, cols);
  CUDA_CHECK(cudaGetLastError());
}

void heat_step(const float* in, float* out, int nx, int ny, float r) {
  heat_step_kernel<<<grid_2d(nx, ny), dim3(kTileX, kTileY, 1), halo_bytes()>>>(in, out, nx, ny, r,
                                                                             nullptr);
  CUDA_CHECK(cudaGetLastError());
}

std::int64_t heat_solve(const float* initial, float* out, float* work, float* /*change*/, int nx,
                        int ny, float r, float tol, std::int64_t max_iters, int check_every) {
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  float* max_change = nullptr;
  CUDA_CHECK(cudaMallocManaged(&max_change, sizeof(float)));
  CUDA_CHECK(cudaEventRecord(start, stream));
  const dim3 grid = grid_2d(nx, ny);
  const dim3 block(kTileX, kTileY, 1);
  const float* src = initial;
  float* dst = out;
  std::int64_t steps = 0;
  while (steps < max_iters) {
    ++steps;
    const bool check = steps % check_every == 0;
    if (check) *max_change = 0.0f;
    heat_step_kernel<<<grid, block, halo_bytes(), stream>>>(src, dst, nx, ny, r,
                                                          check ? max_change : nullptr);
    CUDA_CHECK(cudaGetLastError());
    src = dst;
    dst = dst == out ? work : out;
    if (check) {
      CUDA_CHECK(cudaDeviceSynchronize());
      if (*max_change < tol) break;
    }
  }
  if (src != out) {
    CUDA_CHECK(cudaMemcpyAsync(out, src, sizeof(float) * static_cast<size_t>(nx) * ny,
                               cudaMemcpyDeviceToDevice, stream));
  }
  CUDA_CHECK(cudaEventRecord(stop, stream));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  if (ms < 0.0f) std::fprintf(stderr, "heat_solve: negative time\n");
  CUDA_CHECK(cudaStreamSynchronize(stream));
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  CUDA_CHECK(cudaFree(max_change));
  CUDA_CHECK(cudaStreamDestroy(stream));
  return steps;
}

}  // namespace lab03
