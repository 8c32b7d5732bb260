#pragma once
// The simulated device as the CUDA API sees it, in one object: its live streams and
// events, its memory budget, the allocations not yet freed (the leak check), the flags
// set with cudaSetDeviceFlags. The API's files (runtime/) keep no state of their own.
// One per process, made on first use and never destroyed: the exit handler's leak check
// reads it after static objects may already be gone.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>

#include "parlab_sim/runtime_hints.hpp"
#include "parlab_sim/streams_events.hpp"
#include "runtime/device_memory_budget.hpp"
#include "runtime/handle_registry.hpp"
#include "runtime/leak_check.hpp"

namespace parlab_sim::detail {

// cudaLimit's values that cudaDeviceSetLimit accepts (cudaLimitStackSize and on).
constexpr std::size_t kDeviceLimitCount = 7;

// Kernel names kept for as long as the program runs (a finding may name one at exit).
struct KernelNames {
  std::mutex mutex;
  std::set<std::string> names;
};

struct DeviceContext {
  HandleRegistry<CUstream_st> streams;
  HandleRegistry<CUevent_st> events;
  std::atomic<unsigned int> streams_created{0};  // a stream's number (findings name it)
  std::atomic<unsigned int> device_flags{cudaDeviceScheduleAuto};
  // cudaDeviceSetLimit's values, CUDA's defaults until a program sets one.
  std::atomic<std::size_t> limits[kDeviceLimitCount] = {1024, 1u << 20, 8u << 20, 2, 2048, 64, 0};
  std::atomic<std::uint64_t> launches{0};  // kernels launched so far (seeded orders)
  DeviceMemoryBudget memory;
  LiveAllocations allocations;
  KernelNames kernel_names;
};

DeviceContext& device_context();

}  // namespace parlab_sim::detail
