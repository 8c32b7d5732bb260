// cudaMalloc & co., every cudaMemcpy kind, memset, symbols, and CUDA's argument checks.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

#include "parlab_sim/device_memory_limit.hpp"
#include "sim_test_support.hpp"

namespace {

__device__ float scale_factors[4];
__constant__ int offsets[2];

__global__ void scale(float* values) {
  const unsigned i = threadIdx.x;
  values[i] = values[i] * scale_factors[i % 4] + static_cast<float>(offsets[i % 2]);
}

}  // namespace

TEST_CASE("cudaMemcpy copies in every direction", "[sim][memory]") {
  const std::vector<int> host = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::size_t bytes = host.size() * sizeof(int);
  int* a = nullptr;
  int* b = nullptr;
  REQUIRE(cudaMalloc(&a, bytes) == cudaSuccess);
  REQUIRE(cudaMalloc(reinterpret_cast<void**>(&b), bytes) == cudaSuccess);
  REQUIRE(cudaMemcpy(a, host.data(), bytes, cudaMemcpyHostToDevice) == cudaSuccess);
  REQUIRE(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice) == cudaSuccess);
  std::vector<int> back(host.size());
  REQUIRE(cudaMemcpy(back.data(), b, bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(back == host);
  std::vector<int> copy(host.size());
  REQUIRE(cudaMemcpy(copy.data(), host.data(), bytes, cudaMemcpyHostToHost) == cudaSuccess);
  CHECK(copy == host);
  std::vector<int> inferred(host.size());
  REQUIRE(cudaMemcpy(b, host.data(), bytes, cudaMemcpyDefault) == cudaSuccess);
  REQUIRE(cudaMemcpy(inferred.data(), b, bytes, cudaMemcpyDefault) == cudaSuccess);
  CHECK(inferred == host);
  REQUIRE(cudaMemcpyAsync(back.data(), a, bytes, cudaMemcpyDeviceToHost, nullptr) == cudaSuccess);
  CHECK(back == host);
  REQUIRE(cudaMemset(a, 0, bytes) == cudaSuccess);
  REQUIRE(cudaMemcpy(back.data(), a, bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(back == std::vector<int>(host.size(), 0));
  CHECK(cudaFree(a) == cudaSuccess);
  CHECK(cudaFree(b) == cudaSuccess);
}

TEST_CASE("bad copies fail with CUDA's errors and record them", "[sim][memory]") {
  float* d = nullptr;
  REQUIRE(cudaMalloc(&d, 16 * sizeof(float)) == cudaSuccess);
  std::vector<float> host(32);
  cudaGetLastError();
  // past the end of the allocation
  CHECK(cudaMemcpy(d, host.data(), 17 * sizeof(float), cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  // directions swapped: the "device" side is a host pointer
  CHECK(cudaMemcpy(host.data(), d, 16 * sizeof(float), cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
  CHECK(cudaMemcpy(d, host.data(), 16 * sizeof(float), cudaMemcpyDeviceToHost) == cudaErrorInvalidValue);
  CHECK(cudaMemcpy(d, host.data(), 4, static_cast<cudaMemcpyKind>(7)) == cudaErrorInvalidMemcpyDirection);
  CHECK(cudaMemset(d + 8, 0, 9 * sizeof(float)) == cudaErrorInvalidValue);
  CHECK(cudaMemcpy(d, host.data(), 0, cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaFree(host.data()) == cudaErrorInvalidValue);
  CHECK(cudaFree(d) == cudaSuccess);
  CHECK(cudaFree(d) == cudaErrorInvalidValue);  // double free
  CHECK(cudaFree(nullptr) == cudaSuccess);
  cudaGetLastError();
}

TEST_CASE("allocations: sizes, alignment, poison, zero bytes, memory info", "[sim][memory]") {
  void* zero = reinterpret_cast<void*>(1);
  CHECK(cudaMalloc(&zero, 0) == cudaSuccess);
  CHECK(zero == nullptr);
  for (std::size_t count : {1u, 3u, 1000u, 4096u}) {
    double* d = nullptr;
    REQUIRE(cudaMalloc(&d, count * sizeof(double)) == cudaSuccess);
    CHECK(reinterpret_cast<std::uintptr_t>(d) % alignof(double) == 0);
    double first = 0;
    cudaMemcpy(&first, d, sizeof(double), cudaMemcpyDeviceToHost);
    CHECK(std::isnan(first));  // not zeroed: uninitialized device memory is garbage
    cudaFree(d);
  }
  std::size_t free_before = 0, total = 0;
  REQUIRE(cudaMemGetInfo(&free_before, &total) == cudaSuccess);
  void* big = nullptr;
  REQUIRE(cudaMalloc(&big, 1 << 20) == cudaSuccess);
  std::size_t free_after = 0;
  cudaMemGetInfo(&free_after, &total);
  CHECK(free_before - free_after == (1u << 20));
  cudaFree(big);
  void* too_big = nullptr;
  CHECK(cudaMalloc(&too_big, total + 1) == cudaErrorMemoryAllocation);
  cudaGetLastError();
}

TEST_CASE("a driver can shrink the device memory to enforce a budget", "[sim][memory]") {
  void* inputs = nullptr;
  REQUIRE(cudaMalloc(&inputs, 3 << 20) == cudaSuccess);
  std::size_t free_bytes = 0, total = 0;
  REQUIRE(cudaMemGetInfo(&free_bytes, &total) == cudaSuccess);
  const std::size_t in_use = total - free_bytes;
  CHECK_FALSE(parlab_sim::set_device_memory_capacity(in_use - 1));  // below what is used
  REQUIRE(parlab_sim::set_device_memory_capacity(in_use + (1 << 20)));  // a 1 MiB budget
  cudaMemGetInfo(&free_bytes, &total);
  CHECK(total == in_use + (1 << 20));
  CHECK(free_bytes == (1u << 20));
  void* over = nullptr;
  CHECK(cudaMalloc(&over, (1 << 20) + 1) == cudaErrorMemoryAllocation);
  CHECK(cudaGetLastError() == cudaErrorMemoryAllocation);
  void* within = nullptr;
  CHECK(cudaMalloc(&within, 1 << 19) == cudaSuccess);
  cudaFree(within);
  CHECK(parlab_sim::set_device_memory_capacity(0));  // back to the default size
  void* again = nullptr;
  CHECK(cudaMalloc(&again, 2 << 20) == cudaSuccess);
  cudaFree(again);
  cudaFree(inputs);
}

TEST_CASE("pinned, managed and registered memory are usable by kernels", "[sim][memory]") {
  float* pinned = nullptr;
  float* managed = nullptr;
  REQUIRE(cudaMallocHost(&pinned, 4 * sizeof(float)) == cudaSuccess);
  REQUIRE(cudaMallocManaged(&managed, 4 * sizeof(float)) == cudaSuccess);
  std::vector<float> registered(4, 2.0f);
  REQUIRE(cudaHostRegister(registered.data(), 4 * sizeof(float), cudaHostRegisterDefault) == cudaSuccess);
  void* mapped = nullptr;
  REQUIRE(cudaHostGetDevicePointer(&mapped, pinned, 0) == cudaSuccess);
  CHECK(mapped == pinned);
  const float ones[4] = {1, 1, 1, 1};
  const int zeros[2] = {0, 0};
  REQUIRE(cudaMemcpyToSymbol(scale_factors, ones, sizeof(ones)) == cudaSuccess);
  REQUIRE(cudaMemcpyToSymbol(offsets, zeros, sizeof(zeros)) == cudaSuccess);
  for (int i = 0; i < 4; ++i) pinned[i] = managed[i] = static_cast<float>(i);
  parlab_sim::launch("scale", scale, dim3(1), dim3(4), 0, nullptr, pinned);
  parlab_sim::launch("scale", scale, dim3(1), dim3(4), 0, nullptr, managed);
  parlab_sim::launch("scale", scale, dim3(1), dim3(4), 0, nullptr, registered.data());
  REQUIRE(cudaGetLastError() == cudaSuccess);
  for (int i = 0; i < 4; ++i) {
    CHECK(pinned[i] == static_cast<float>(i));
    CHECK(managed[i] == static_cast<float>(i));
    CHECK(registered[i] == 2.0f);
  }
  CHECK(cudaHostUnregister(registered.data()) == cudaSuccess);
  CHECK(cudaHostUnregister(registered.data()) == cudaErrorHostMemoryNotRegistered);
  CHECK(cudaFreeHost(pinned) == cudaSuccess);
  CHECK(cudaFree(managed) == cudaSuccess);
  cudaGetLastError();
}

TEST_CASE("symbol copies reach __device__ and __constant__ variables", "[sim][memory]") {
  const float factors[4] = {1, 2, 3, 4};
  const int added[2] = {10, 20};
  REQUIRE(cudaMemcpyToSymbol(scale_factors, factors, sizeof(factors)) == cudaSuccess);
  REQUIRE(cudaMemcpyToSymbol(offsets, &added[1], sizeof(int), sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMemcpyToSymbol(offsets, added, sizeof(int)) == cudaSuccess);
  int second = -1;
  REQUIRE(cudaMemcpyFromSymbol(&second, offsets, sizeof(int), sizeof(int)) == cudaSuccess);
  CHECK(second == 20);
  CHECK(cudaMemcpyToSymbol(offsets, added, 3 * sizeof(int)) == cudaErrorInvalidValue);
  cudaGetLastError();
  sim_test::DeviceArray<float> values(std::vector<float>{1, 1, 1, 1, 2, 2, 2, 2});
  parlab_sim::launch("scale", scale, dim3(1), dim3(8), 0, nullptr, values.get());
  CHECK(values.to_host() == std::vector<float>{11, 22, 13, 24, 12, 24, 16, 28});
  void* address = nullptr;
  REQUIRE(cudaGetSymbolAddress(&address, scale_factors) == cudaSuccess);
  CHECK(address == static_cast<void*>(scale_factors));
}

// The registry's slots live in pages that are made ready only as allocations reach them
// (memory/memory_registry.hpp): hundreds of live allocations span several pages of slots,
// each found again by a copy, and freed slots are used again.
TEST_CASE("hundreds of live allocations are each known, and the slots of freed ones reused", "[sim][memory]") {
  constexpr int kBuffers = 400;  // 400 slots of 48 bytes: five pages
  for (int round = 0; round < 2; ++round) {
    std::vector<unsigned char*> buffers(kBuffers, nullptr);
    for (int i = 0; i < kBuffers; ++i) {
      REQUIRE(cudaMalloc(&buffers[i], 64) == cudaSuccess);
      REQUIRE(cudaMemset(buffers[i], (i + round) % 251, 64) == cudaSuccess);
    }
    for (int i = 0; i < kBuffers; ++i) {
      unsigned char back[64] = {};
      REQUIRE(cudaMemcpy(back, buffers[i], sizeof back, cudaMemcpyDeviceToHost) == cudaSuccess);
      CHECK(back[0] == (i + round) % 251);
      CHECK(back[63] == (i + round) % 251);
    }
    for (unsigned char* buffer : buffers) REQUIRE(cudaFree(buffer) == cudaSuccess);
    unsigned char after_free[4] = {};
    CHECK(cudaMemcpy(after_free, buffers[kBuffers - 1], sizeof after_free, cudaMemcpyDeviceToHost) != cudaSuccess);
    cudaGetLastError();
  }
}
