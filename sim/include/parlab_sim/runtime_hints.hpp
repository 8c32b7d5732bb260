#pragma once
// Runtime calls public CUDA code makes that change placement, speed or bookkeeping,
// never results (docs/simulation.md, "What is supported"): unified-memory prefetch and
// advice (CUDA 12's and 13's signatures), stream-ordered allocation, device flags and
// limits, stream priorities, the profiler range, kernel attributes. Their arguments
// are checked as CUDA checks them; otherwise the simulator has nothing to do.
#include <cstddef>
#include <source_location>

#include "parlab_sim/device.hpp"
#include "parlab_sim/errors.hpp"
#include "parlab_sim/memory.hpp"
#include "parlab_sim/streams_events.hpp"

// --- unified memory: where pages live (one address space here) --------------------
#define cudaCpuDeviceId ((int)-1)
#define cudaInvalidDeviceId ((int)-2)
enum cudaMemLocationType {
  cudaMemLocationTypeInvalid = 0,
  cudaMemLocationTypeDevice = 1,
  cudaMemLocationTypeHost = 2,
  cudaMemLocationTypeHostNuma = 3,
  cudaMemLocationTypeHostNumaCurrent = 4,
};
struct cudaMemLocation {
  cudaMemLocationType type;
  int id;
};
enum cudaMemoryAdvise {
  cudaMemAdviseSetReadMostly = 1,
  cudaMemAdviseUnsetReadMostly = 2,
  cudaMemAdviseSetPreferredLocation = 3,
  cudaMemAdviseUnsetPreferredLocation = 4,
  cudaMemAdviseSetAccessedBy = 5,
  cudaMemAdviseUnsetAccessedBy = 6,
};
// The range must lie in one cudaMallocManaged allocation (cudaErrorInvalidValue
// otherwise); the device 0 or cudaCpuDeviceId (cudaErrorInvalidDevice).
cudaError_t cudaMemPrefetchAsync(const void* pointer, std::size_t bytes, int device,
                                 cudaStream_t stream = nullptr);  // CUDA 12
cudaError_t cudaMemPrefetchAsync(const void* pointer, std::size_t bytes, cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream = nullptr);  // CUDA 13
cudaError_t cudaMemAdvise(const void* pointer, std::size_t bytes, cudaMemoryAdvise advice,
                          int device);  // CUDA 12
cudaError_t cudaMemAdvise(const void* pointer, std::size_t bytes, cudaMemoryAdvise advice,
                          cudaMemLocation location);  // CUDA 13

// --- stream-ordered allocation: work completes when issued, so it is cudaMalloc ----
cudaError_t cudaMallocAsync(void** device_pointer, std::size_t bytes, cudaStream_t stream,
                            std::source_location site = std::source_location::current());
// Not a synchronization (unlike cudaFree): pending copies stay pending.
cudaError_t cudaFreeAsync(void* device_pointer, cudaStream_t stream);
template <class T>
cudaError_t cudaMallocAsync(T** device_pointer, std::size_t bytes, cudaStream_t stream,
                            std::source_location site = std::source_location::current()) {
  return cudaMallocAsync(reinterpret_cast<void**>(device_pointer), bytes, stream, site);
}

// --- device flags and limits: remembered and answered back -------------------------
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceBlockingSync 0x04
#define cudaDeviceScheduleMask 0x07
#define cudaDeviceMapHost 0x08
#define cudaDeviceLmemResizeToMax 0x10
enum cudaLimit {
  cudaLimitStackSize = 0x00,
  cudaLimitPrintfFifoSize = 0x01,
  cudaLimitMallocHeapSize = 0x02,
  cudaLimitDevRuntimeSyncDepth = 0x03,
  cudaLimitDevRuntimePendingLaunchCount = 0x04,
  cudaLimitMaxL2FetchGranularity = 0x05,
  cudaLimitPersistingL2CacheSize = 0x06,
};
cudaError_t cudaSetDeviceFlags(unsigned int flags);
cudaError_t cudaGetDeviceFlags(unsigned int* flags);
cudaError_t cudaDeviceSetLimit(cudaLimit limit, std::size_t value);
cudaError_t cudaDeviceGetLimit(std::size_t* value, cudaLimit limit);
// No L2 cache is modelled, so there are no persisting lines to drop.
cudaError_t cudaCtxResetPersistingL2Cache();

// --- stream priorities: the device has none (streamPrioritiesSupported 0) ----------
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int priority);
cudaError_t cudaStreamGetPriority(cudaStream_t stream, int* priority);

// --- the profiler range (cuda_profiler_api.h) --------------------------------------
cudaError_t cudaProfilerStart();
cudaError_t cudaProfilerStop();

// --- a kernel's attributes ----------------------------------------------------------
// What cudaFuncGetAttributes answers here: maxThreadsPerBlock 1024 (the simulator does
// not see __launch_bounds__), no registers, local or static shared memory known before
// a launch (0), the kernel's dynamic shared-memory limit (48 KiB or its opt-in).
struct cudaFuncAttributes {
  std::size_t sharedSizeBytes;
  std::size_t constSizeBytes;
  std::size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
  int clusterDimMustBeSet;
  int requiredClusterWidth;
  int requiredClusterHeight;
  int requiredClusterDepth;
  int clusterSchedulingPolicyPreference;
  int nonPortableClusterSizeAllowed;
  int reserved[16];
};
namespace parlab_sim::detail {
cudaError_t function_attributes(cudaFuncAttributes* attributes, const void* kernel);
}  // namespace parlab_sim::detail
template <class Kernel>
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, Kernel* kernel) {
  return parlab_sim::detail::function_attributes(attributes, reinterpret_cast<const void*>(kernel));
}
