#pragma once
// The simulated device's memory size (cudaDeviceProp::totalGlobalMem) and what
// cudaMalloc and cudaMallocManaged have used of it, so a leak in a loop ends with
// cudaErrorMemoryAllocation as on a GPU.
#include <cstddef>

namespace parlab_sim::detail {

std::size_t device_memory_capacity();  // 8 GiB, or half the host's memory if less
bool reserve_device_memory(std::size_t bytes);
void release_device_memory(std::size_t bytes);
std::size_t device_memory_in_use();

}  // namespace parlab_sim::detail
