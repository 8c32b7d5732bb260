// Fake lab04 sum_reduce.cu (sim_patterns, docs/simulation.md "Agreement with a GPU"):
// the sum in the shape of NVIDIA's cuda-samples reduction, correct on a GPU:
//   - SharedMemory<T>: dynamic shared memory declared `extern __shared__ int __smem[]`
//     inside a member function and cast to T*, sized by the launch's 3rd argument;
//   - a kernel templated on its block size with __launch_bounds__, a blockSize switch
//     on the host, a grid-stride loop, #pragma unroll;
//   - cooperative groups: cg::sync(block), tiled_partition<32> and shfl_down;
//   - a double accumulator through an atomicCAS loop (code for GPUs before sm_60) in
//     memory from cudaMallocAsync / cudaFreeAsync, sized from cudaGetDeviceProperties;
//   - a CUDA_CHECK macro, cudaGetLastError / cudaPeekAtLastError after the launches.
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <cooperative_groups.h>

#include "api.hpp"

namespace cg = cooperative_groups;

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

// One extern array of a fixed type for every instantiation, cast to T (two extern
// __shared__ arrays of different types would clash).
template <class T>
struct SharedMemory {
  __device__ inline operator T*() {
    extern __shared__ int __smem[];
    return reinterpret_cast<T*>(__smem);
  }
};

// atomicAdd on double as written for GPUs without it.
__device__ double atomic_add_double(double* address, double val) {
  unsigned long long int* address_as_ull = reinterpret_cast<unsigned long long int*>(address);
  unsigned long long int old = *address_as_ull;
  unsigned long long int assumed;
  do {
    assumed = old;
    old = atomicCAS(address_as_ull, assumed,
                    __double_as_longlong(val + __longlong_as_double(assumed)));
  } while (assumed != old);
  return __longlong_as_double(old);
}

template <class T, unsigned int blockSize>
__global__ void __launch_bounds__(blockSize)
    reduce_kernel(const T* __restrict__ g_idata, double* g_odata, unsigned int n) {
  cg::thread_block cta = cg::this_thread_block();
  T* sdata = SharedMemory<T>();
  const unsigned int tid = threadIdx.x;
  const unsigned int gridSize = blockSize * gridDim.x;
  T mySum = 0;
  for (unsigned int i = blockIdx.x * blockSize + tid; i < n; i += gridSize) mySum += g_idata[i];
  sdata[tid] = mySum;
  cg::sync(cta);
#pragma unroll
  for (unsigned int s = blockSize / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] = mySum = mySum + sdata[tid + s];
    cg::sync(cta);
  }
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  if (cta.thread_rank() < 32) {
    mySum += sdata[tid + 32];
    for (int offset = tile32.size() / 2; offset > 0; offset /= 2) {
      mySum += tile32.shfl_down(mySum, offset);
    }
  }
  if (cta.thread_rank() == 0) atomic_add_double(g_odata, static_cast<double>(mySum));
}

__global__ void store_as_float(const double* sum, float* result) { *result = static_cast<float>(*sum); }

}  // namespace

namespace lab04 {

void sum(const float* values, int n, float* result) {
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  const int threads = prop.maxThreadsPerBlock >= 512 ? 512 : 256;
  const int blocks_per_sm = prop.maxThreadsPerMultiProcessor / threads;
  const int blocks = std::min((n + threads - 1) / threads, prop.multiProcessorCount * blocks_per_sm);
  cudaStream_t stream = 0;
  double* total = nullptr;
  CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&total), sizeof(double), stream));
  CUDA_CHECK(cudaMemsetAsync(total, 0, sizeof(double), stream));
  const size_t smem = threads * sizeof(float);
  switch (threads) {
    case 512:
      reduce_kernel<float, 512><<<blocks, 512, smem, stream>>>(values, total, n);
      break;
    default:
      reduce_kernel<float, 256><<<blocks, 256, smem, stream>>>(values, total, n);
      break;
  }
  CUDA_CHECK(cudaGetLastError());
  store_as_float<<<1, 1, 0, stream>>>(total, result);
  CUDA_CHECK(cudaPeekAtLastError());
  CUDA_CHECK(cudaFreeAsync(total, stream));
}

}  // namespace lab04
