// Static __shared__ arrays are per block; dynamic (extern __shared__) memory is sized by
// the launch; a block over the shared-memory limit fails like on a GPU.
#include <catch2/catch.hpp>

#include "sim_test_support.hpp"

using sim_test::DeviceArray;

namespace {

// Blocks run in parallel on several workers: each must see only its own tile.
__global__ void stamp_block_index(int* out) {
  __shared__ int tile[128];
  PARLAB_SIM_STATIC_SHARED(sizeof(tile));
  tile[threadIdx.x] = static_cast<int>(blockIdx.x);
  __syncthreads();
  int sum = 0;
  for (int i = 0; i < 128; ++i) sum += tile[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// What parlab-sim-rewrite makes of `extern __shared__ float buffer[];`.
__global__ void reverse_with_dynamic_shared(const float* in, float* out) {
  float* const buffer = static_cast<float*>(parlab_sim::dynamic_shared_memory());
  const unsigned t = threadIdx.x;
  buffer[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = buffer[blockDim.x - 1 - t];
}

__global__ void dynamic_shared_address(unsigned long long* out) {
  out[blockIdx.x] = reinterpret_cast<unsigned long long>(parlab_sim::dynamic_shared_memory());
}

__global__ void uses_40_kib_static(int* out) {
  __shared__ char big[40 * 1024];
  PARLAB_SIM_STATIC_SHARED(sizeof(big));
  big[threadIdx.x] = 1;
  __syncthreads();
  out[blockIdx.x] = big[0];
}

// Thread 0 declares too much shared memory after a barrier, when the block's other
// threads are suspended: the launch is aborted and they are unwound.
__global__ void too_much_after_barrier(int* out) {
  __syncthreads();
  if (threadIdx.x == 0) {
    __shared__ char huge[60 * 1024];
    PARLAB_SIM_STATIC_SHARED(sizeof(huge));
    huge[0] = 1;
  }
  __syncthreads();
  out[blockIdx.x] = 1;
}

}  // namespace

TEST_CASE("static __shared__ memory is private to each block", "[sim][shared]") {
  const unsigned blocks = 200;
  DeviceArray<int> d_out(blocks * 128, -1);
  parlab_sim::launch("stamp_block_index", stamp_block_index, dim3(blocks), dim3(128), 0, nullptr,
                     d_out.get());
  REQUIRE(cudaGetLastError() == cudaSuccess);
  const std::vector<int> out = d_out.to_host();
  for (unsigned b = 0; b < blocks; ++b) {
    for (unsigned t = 0; t < 128; ++t) REQUIRE(out[b * 128 + t] == static_cast<int>(128 * b));
  }
}

TEST_CASE("extern __shared__ memory has the size given at launch", "[sim][shared]") {
  const unsigned blocks = 16;
  const unsigned threads = 300;
  std::vector<float> in(blocks * threads);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
  DeviceArray<float> d_in(in);
  DeviceArray<float> d_out(in.size());
  parlab_sim::launch("reverse_with_dynamic_shared", reverse_with_dynamic_shared, dim3(blocks),
                     dim3(threads), threads * sizeof(float), nullptr, d_in.get(), d_out.get());
  REQUIRE(cudaGetLastError() == cudaSuccess);
  const std::vector<float> out = d_out.to_host();
  for (unsigned b = 0; b < blocks; ++b) {
    for (unsigned t = 0; t < threads; ++t) {
      REQUIRE(out[b * threads + t] == in[b * threads + threads - 1 - t]);
    }
  }
}

TEST_CASE("dynamic shared memory is 16-byte aligned", "[sim][shared]") {
  DeviceArray<unsigned long long> d_out(8);
  parlab_sim::launch("dynamic_shared_address", dynamic_shared_address, dim3(8), dim3(1), 20,
                     nullptr, d_out.get());
  for (unsigned long long address : d_out.to_host()) CHECK(address % 16 == 0);
}

TEST_CASE("more than 48 KiB of shared memory per block fails with cudaErrorInvalidValue",
          "[sim][shared][launch-errors]") {
  DeviceArray<int> d_out(4, -1);
  SECTION("dynamic shared memory alone") {
    parlab_sim::launch("dynamic_shared_address", dynamic_shared_address, dim3(1), dim3(1),
                       48 * 1024 + 1, nullptr, reinterpret_cast<unsigned long long*>(d_out.get()));
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    CHECK(d_out.to_host()[0] == -1);  // nothing ran
  }
  SECTION("static plus dynamic shared memory") {
    parlab_sim::launch("uses_40_kib_static", uses_40_kib_static, dim3(4), dim3(32), 8 * 1024,
                       nullptr, d_out.get());
    CHECK(cudaGetLastError() == cudaSuccess);
    parlab_sim::launch("uses_40_kib_static", uses_40_kib_static, dim3(4), dim3(32), 8 * 1024 + 1,
                       nullptr, d_out.get());
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  }
  SECTION("cudaFuncSetAttribute raises the limit up to the opt-in maximum") {
    using Kernel = void (*)(unsigned long long*);
    const Kernel kernel = dynamic_shared_address;
    cudaDeviceProp properties;
    REQUIRE(cudaGetDeviceProperties(&properties, 0) == cudaSuccess);
    CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(properties.sharedMemPerBlockOptin) + 1) ==
          cudaErrorInvalidValue);
    cudaGetLastError();
    REQUIRE(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 96 * 1024) == cudaSuccess);
    parlab_sim::launch("dynamic_shared_address", kernel, dim3(1), dim3(1), 96 * 1024, nullptr,
                       reinterpret_cast<unsigned long long*>(d_out.get()));
    CHECK(cudaGetLastError() == cudaSuccess);
  }
}

TEST_CASE("a launch aborted mid-block unwinds its waiting threads and the next launch runs",
          "[sim][shared][launch-errors]") {
  DeviceArray<int> d_out(64, 0);
  parlab_sim::launch("too_much_after_barrier", too_much_after_barrier, dim3(64), dim3(128), 0,
                     nullptr, d_out.get());
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  DeviceArray<int> d_stamps(4 * 128, 0);
  parlab_sim::launch("stamp_block_index", stamp_block_index, dim3(4), dim3(128), 0, nullptr,
                     d_stamps.get());
  REQUIRE(cudaGetLastError() == cudaSuccess);
  CHECK(d_stamps.to_host()[128 + 5] == 128);
}
