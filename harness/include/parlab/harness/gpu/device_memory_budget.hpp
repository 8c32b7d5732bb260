#pragma once
// A device-memory budget for the student's code (lab02's memory wall). While a
// DeviceMemoryBudget lives, the student's cudaMalloc calls get at most `bytes` in total
// beyond what is allocated now; past that they fail with cudaErrorMemoryAllocation, as
// on a GPU whose memory is full.
// - On a GPU, an unused "ballast" allocation takes the rest of the free memory. The
//   allocator's granularity makes the budget exact to about 2 MiB; if the ballast does
//   not fit in one piece it is made smaller, so the budget can only grow, never shrink.
// - In the simulator (drivers built with PARLAB_SIM_DRIVER) the simulated device is
//   shrunk instead: a ballast there would be real host address space.
// - Under compute-sanitizer (enforce = false) nothing is held back: the tool allocates
//   device memory of its own, and tracking a ballast of the whole device ran initcheck
//   out of host memory. The plain run of the same call enforced the budget.
#include <cuda_runtime.h>

#include <cstddef>

#include "parlab/harness/gpu/cuda_check.hpp"
#if defined(PARLAB_SIM_DRIVER)
#include "parlab_sim/device_memory_limit.hpp"
#endif

namespace parlab::harness::gpu {

class DeviceMemoryBudget {
 public:
  explicit DeviceMemoryBudget(std::size_t bytes, bool enforce = true) {
    if (!enforce) return;
    enforced_ = true;
    std::size_t free_bytes = 0, total = 0;
    PARLAB_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
#if defined(PARLAB_SIM_DRIVER)
    if (!parlab_sim::set_device_memory_capacity(total - free_bytes + bytes)) {
      throw CudaError("the simulator could not set a device-memory budget");
    }
#else
    constexpr std::size_t kStep = std::size_t{64} << 20;
    for (std::size_t ballast = free_bytes > bytes ? free_bytes - bytes : 0; ballast > 0;
         ballast = ballast > kStep ? ballast - kStep : 0) {
      if (cudaMalloc(&ballast_, ballast) == cudaSuccess) break;
      ballast_ = nullptr;
      cudaGetLastError();  // the failed try is ours, not the student's
    }
#endif
  }
  ~DeviceMemoryBudget() {
#if defined(PARLAB_SIM_DRIVER)
    if (enforced_) parlab_sim::set_device_memory_capacity(0);
#else
    if (ballast_) cudaFree(ballast_);
#endif
  }
  DeviceMemoryBudget(const DeviceMemoryBudget&) = delete;
  DeviceMemoryBudget& operator=(const DeviceMemoryBudget&) = delete;

 private:
  void* ballast_ = nullptr;
  bool enforced_ = false;
};

}  // namespace parlab::harness::gpu
