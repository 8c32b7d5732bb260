// C++'s new and delete as a sim build's .cu object calls them once the grader renamed
// them (compile/compile_steps, to sim/src/runtime/kernel_new.cpp): a kernel's thread gets
// device heap memory, as CUDA's in-kernel new gives, host code the C++ library's, and
// each delete gives a block back to where it came from.
#include <catch2/catch.hpp>
#include <cstdint>
#include <new>

#include "memory/device_heap.hpp"
#include "sim_test_support.hpp"

extern "C" {
void* parlab_sim_new(std::size_t bytes);
void* parlab_sim_new_array(std::size_t bytes);
void* parlab_sim_new_nothrow(std::size_t bytes, const std::nothrow_t& tag) noexcept;
void parlab_sim_delete_array(void* block) noexcept;
void parlab_sim_delete_sized(void* block, std::size_t bytes) noexcept;
}

using sim_test::DeviceArray;

namespace {

__global__ void new_in_kernel(unsigned long long* addresses, float* seen) {
  auto* buffer = static_cast<float*>(parlab_sim_new_array(64 * sizeof(float)));
  buffer[5] = static_cast<float>(threadIdx.x);
  seen[threadIdx.x] = buffer[5];
  addresses[threadIdx.x] = reinterpret_cast<unsigned long long>(buffer);
  parlab_sim_delete_array(buffer);
}

}  // namespace

TEST_CASE("new in a kernel is device heap memory, new in host code the C++ library's",
          "[sim][device_heap]") {
  DeviceArray<unsigned long long> addresses(4);
  DeviceArray<float> seen(4);
  parlab_sim::launch("new_in_kernel", new_in_kernel, dim3(1), dim3(4), 0, nullptr, addresses.get(),
                     seen.get());
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const std::vector<unsigned long long> kernel_blocks = addresses.to_host();
  const std::vector<float> values = seen.to_host();
  for (int t = 0; t < 4; ++t) {
    CHECK(parlab_sim::detail::in_device_heap(static_cast<std::uintptr_t>(kernel_blocks[t])));
    CHECK(values[t] == static_cast<float>(t));
  }
  // Host code: the library's memory, given back by the matching delete.
  void* host_block = parlab_sim_new(32);
  CHECK_FALSE(parlab_sim::detail::in_device_heap(reinterpret_cast<std::uintptr_t>(host_block)));
  parlab_sim_delete_sized(host_block, 32);
  void* nothrow_block = parlab_sim_new_nothrow(16, std::nothrow);
  CHECK_FALSE(parlab_sim::detail::in_device_heap(reinterpret_cast<std::uintptr_t>(nothrow_block)));
  parlab_sim_delete_sized(nothrow_block, 16);  // not the heap's: the library's delete
}
