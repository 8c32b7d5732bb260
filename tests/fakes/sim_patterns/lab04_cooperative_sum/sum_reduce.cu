// Fake lab04 sum_reduce.cu: the sum as one cooperative kernel, the
// grid sized the way the CUDA programming guide sizes a cooperative launch (blocks per
// multiprocessor from the occupancy API times the multiprocessor count), a grid-stride
// loop, one partial per block, this_grid().sync(), and block 0 adding the partials in
// a fixed order. Correct on a GPU; the simulator must run it too.
#include <cooperative_groups.h>

#include "api.hpp"
#include "parlab/harness/gpu/cuda_check.hpp"

namespace cg = cooperative_groups;

namespace {

constexpr int kBlock = 256;

__global__ void sum_grid_kernel(const float* __restrict__ values, int n, double* partials,
                                float* result) {
  cg::grid_group grid = cg::this_grid();
  __shared__ double partial[kBlock];  // double: a long grid-stride chain stays exact enough
  const int t = threadIdx.x;
  double mine = 0.0;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) mine += values[i];
  partial[t] = mine;
  __syncthreads();
  for (int stride = kBlock / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) partials[blockIdx.x] = partial[0];
  grid.sync();  // every block's partial is written
  if (blockIdx.x == 0 && t == 0) {
    double total = 0.0;
    for (unsigned b = 0; b < gridDim.x; ++b) total += partials[b];
    *result = static_cast<float>(total);
  }
}

}  // namespace

namespace lab04 {

void sum(const float* values, int n, float* result) {
  int device = 0;
  PARLAB_CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp properties{};
  PARLAB_CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
  int per_multiprocessor = 0;
  PARLAB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor,
                                                                  sum_grid_kernel, kBlock, 0));
  const int blocks = per_multiprocessor * properties.multiProcessorCount;
  double* partials = nullptr;
  PARLAB_CUDA_CHECK(cudaMalloc(&partials, sizeof(double) * blocks));
  void* args[] = {&values, &n, &partials, &result};
  PARLAB_CUDA_CHECK(cudaLaunchCooperativeKernel(sum_grid_kernel, dim3(blocks), dim3(kBlock), args,
                                                0, nullptr));
  PARLAB_CUDA_CHECK(cudaDeviceSynchronize());
  PARLAB_CUDA_CHECK(cudaFree(partials));
}

}  // namespace lab04
