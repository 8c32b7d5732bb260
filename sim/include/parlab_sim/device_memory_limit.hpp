#pragma once
// parlab's own extension, not CUDA: shrink the simulated device's memory. A grader-owned
// driver uses it to enforce a device-memory budget on the student's code (lab02's
// memory wall): afterwards cudaMalloc fails with cudaErrorMemoryAllocation past the
// new size, as on a GPU whose memory is full. On a real GPU the driver allocates an
// unused "ballast" instead (parlab/harness/gpu/device_memory_budget.hpp).
#include <cstddef>

namespace parlab_sim {

// Sets the simulated device's total memory (cudaMemGetInfo's total, what cudaMalloc can
// use) to `bytes`; 0 restores the default. False, and nothing changed, when more than
// `bytes` is in use already.
bool set_device_memory_capacity(std::size_t bytes);

}  // namespace parlab_sim
