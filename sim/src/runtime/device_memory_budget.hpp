#pragma once
// The simulated device's memory size (cudaDeviceProp::totalGlobalMem) and what
// cudaMalloc and cudaMallocManaged have used of it, so a leak in a loop ends with
// cudaErrorMemoryAllocation as on a GPU. The budget is the device's
// (runtime/device_context); the functions below use it.
#include <atomic>
#include <cstddef>

namespace parlab_sim::detail {

struct DeviceMemoryBudget {
  std::atomic<std::size_t> in_use{0};
  std::atomic<std::size_t> capacity_override{0};  // 0: the default (device_memory_capacity)
};

std::size_t device_memory_capacity();  // 8 GiB, or half the host's memory if less
bool reserve_device_memory(std::size_t bytes);
void release_device_memory(std::size_t bytes);
std::size_t device_memory_in_use();

}  // namespace parlab_sim::detail
