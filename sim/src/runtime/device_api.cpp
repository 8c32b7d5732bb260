// The simulated device: one device, number 0, described by device_properties().
// Everything is synchronous, so cudaDeviceSynchronize has nothing to wait for.
#include <cstdio>
#include <cstring>

#include "device/launch_limits.hpp"
#include "exec/worker_pool.hpp"
#include "parlab_sim/device.hpp"
#include "runtime/allocations.hpp"
#include "copies/deferred_copies.hpp"
#include "runtime/device_memory_budget.hpp"

namespace parlab_sim::detail {
namespace {

thread_local int t_current_device = 0;

cudaDeviceProp device_properties() {
  cudaDeviceProp p{};
  const unsigned workers = WorkerPool::configured_worker_count();
  std::snprintf(p.name, sizeof(p.name), "parlab simulated GPU (CPU, %u worker threads)", workers);
  p.totalGlobalMem = device_memory_capacity();
  p.sharedMemPerBlock = kSharedMemoryPerBlockBytes;
  p.sharedMemPerBlockOptin = kSharedMemoryOptinBytes;
  p.sharedMemPerMultiprocessor = 164 * 1024;
  p.reservedSharedMemPerBlock = 0;
  p.regsPerBlock = 65536;
  p.regsPerMultiprocessor = 65536;
  p.warpSize = 32;
  p.memPitch = 2147483647;
  p.maxThreadsPerBlock = static_cast<int>(kMaxThreadsPerBlock);
  for (int i = 0; i < 3; ++i) {
    p.maxThreadsDim[i] = static_cast<int>(kMaxBlockDim[i]);
    p.maxGridSize[i] = static_cast<int>(kMaxGridDim[i]);
  }
  p.clockRate = 1000000;  // kHz; nominal, the simulator does not model speed
  p.memoryClockRate = 1000000;
  p.memoryBusWidth = 64;
  p.totalConstMem = 65536;
  p.major = 8;
  p.minor = 0;
  p.textureAlignment = 512;
  p.texturePitchAlignment = 32;
  p.multiProcessorCount = static_cast<int>(workers);
  p.maxThreadsPerMultiProcessor = 2048;
  p.maxBlocksPerMultiProcessor = 32;
  p.l2CacheSize = 4 * 1024 * 1024;
  p.canMapHostMemory = 1;
  p.unifiedAddressing = 1;
  p.managedMemory = 1;
  p.concurrentManagedAccess = 1;
  p.canUseHostPointerForRegisteredMem = 1;
  // this_grid().sync() works when every block is resident: no more blocks than
  // multiProcessorCount (one per worker; exec/device_calls.cpp).
  p.cooperativeLaunch = 1;
  p.globalL1CacheSupported = 1;
  p.localL1CacheSupported = 1;
  // Kernels and copies run one after another: no overlap, no concurrent kernels.
  p.deviceOverlap = 0;
  p.asyncEngineCount = 0;
  p.concurrentKernels = 0;
  return p;
}

bool device_attribute(cudaDeviceAttr attribute, const cudaDeviceProp& p, int& value) {
  switch (attribute) {
    case cudaDevAttrMaxThreadsPerBlock: value = p.maxThreadsPerBlock; return true;
    case cudaDevAttrMaxBlockDimX: value = p.maxThreadsDim[0]; return true;
    case cudaDevAttrMaxBlockDimY: value = p.maxThreadsDim[1]; return true;
    case cudaDevAttrMaxBlockDimZ: value = p.maxThreadsDim[2]; return true;
    case cudaDevAttrMaxGridDimX: value = p.maxGridSize[0]; return true;
    case cudaDevAttrMaxGridDimY: value = p.maxGridSize[1]; return true;
    case cudaDevAttrMaxGridDimZ: value = p.maxGridSize[2]; return true;
    case cudaDevAttrMaxSharedMemoryPerBlock: value = static_cast<int>(p.sharedMemPerBlock); return true;
    case cudaDevAttrTotalConstantMemory: value = static_cast<int>(p.totalConstMem); return true;
    case cudaDevAttrWarpSize: value = p.warpSize; return true;
    case cudaDevAttrMaxPitch: value = static_cast<int>(p.memPitch); return true;
    case cudaDevAttrMaxRegistersPerBlock: value = p.regsPerBlock; return true;
    case cudaDevAttrClockRate: value = p.clockRate; return true;
    case cudaDevAttrTextureAlignment: value = static_cast<int>(p.textureAlignment); return true;
    case cudaDevAttrGpuOverlap: value = p.deviceOverlap; return true;
    case cudaDevAttrMultiProcessorCount: value = p.multiProcessorCount; return true;
    case cudaDevAttrKernelExecTimeout: value = p.kernelExecTimeoutEnabled; return true;
    case cudaDevAttrIntegrated: value = p.integrated; return true;
    case cudaDevAttrCanMapHostMemory: value = p.canMapHostMemory; return true;
    case cudaDevAttrComputeMode: value = p.computeMode; return true;
    case cudaDevAttrConcurrentKernels: value = p.concurrentKernels; return true;
    case cudaDevAttrEccEnabled: value = p.ECCEnabled; return true;
    case cudaDevAttrPciBusId: value = p.pciBusID; return true;
    case cudaDevAttrPciDeviceId: value = p.pciDeviceID; return true;
    case cudaDevAttrTccDriver: value = p.tccDriver; return true;
    case cudaDevAttrPciDomainId: value = p.pciDomainID; return true;
    case cudaDevAttrStreamPrioritiesSupported: value = p.streamPrioritiesSupported; return true;
    case cudaDevAttrGlobalL1CacheSupported: value = p.globalL1CacheSupported; return true;
    case cudaDevAttrLocalL1CacheSupported: value = p.localL1CacheSupported; return true;
    case cudaDevAttrIsMultiGpuBoard: value = p.isMultiGpuBoard; return true;
    case cudaDevAttrMultiGpuBoardGroupID: value = p.multiGpuBoardGroupID; return true;
    case cudaDevAttrHostNativeAtomicSupported: value = p.hostNativeAtomicSupported; return true;
    case cudaDevAttrPageableMemoryAccess: value = p.pageableMemoryAccess; return true;
    case cudaDevAttrConcurrentManagedAccess: value = p.concurrentManagedAccess; return true;
    case cudaDevAttrComputePreemptionSupported: value = p.computePreemptionSupported; return true;
    case cudaDevAttrCanUseHostPointerForRegisteredMem:
      value = p.canUseHostPointerForRegisteredMem;
      return true;
    case cudaDevAttrCooperativeMultiDeviceLaunch: value = p.cooperativeMultiDeviceLaunch; return true;
    case cudaDevAttrMemoryClockRate: value = p.memoryClockRate; return true;
    case cudaDevAttrGlobalMemoryBusWidth: value = p.memoryBusWidth; return true;
    case cudaDevAttrL2CacheSize: value = p.l2CacheSize; return true;
    case cudaDevAttrMaxThreadsPerMultiProcessor: value = p.maxThreadsPerMultiProcessor; return true;
    case cudaDevAttrAsyncEngineCount: value = p.asyncEngineCount; return true;
    case cudaDevAttrUnifiedAddressing: value = p.unifiedAddressing; return true;
    case cudaDevAttrComputeCapabilityMajor: value = p.major; return true;
    case cudaDevAttrComputeCapabilityMinor: value = p.minor; return true;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
      value = static_cast<int>(p.sharedMemPerMultiprocessor);
      return true;
    case cudaDevAttrMaxRegistersPerMultiprocessor: value = p.regsPerMultiprocessor; return true;
    case cudaDevAttrManagedMemory: value = p.managedMemory; return true;
    case cudaDevAttrCooperativeLaunch: value = p.cooperativeLaunch; return true;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
      value = static_cast<int>(p.sharedMemPerBlockOptin);
      return true;
    case cudaDevAttrMaxBlocksPerMultiprocessor: value = p.maxBlocksPerMultiProcessor; return true;
  }
  return false;
}

}  // namespace
}  // namespace parlab_sim::detail

using parlab_sim::detail::record_error;

cudaError_t cudaGetDeviceCount(int* count) {
  if (count == nullptr) return record_error(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}

cudaError_t cudaGetDevice(int* device) {
  if (device == nullptr) return record_error(cudaErrorInvalidValue);
  *device = parlab_sim::detail::t_current_device;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  if (device != 0) return record_error(cudaErrorInvalidDevice);
  parlab_sim::detail::t_current_device = device;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* properties, int device) {
  if (properties == nullptr) return record_error(cudaErrorInvalidValue);
  if (device != 0) return record_error(cudaErrorInvalidDevice);
  *properties = parlab_sim::detail::device_properties();
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attribute, int device) {
  if (value == nullptr) return record_error(cudaErrorInvalidValue);
  if (device != 0) return record_error(cudaErrorInvalidDevice);
  if (!parlab_sim::detail::device_attribute(attribute, parlab_sim::detail::device_properties(),
                                            *value)) {
    return record_error(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

// Kernels are done when their launch returns; pending asynchronous copies land now.
cudaError_t cudaDeviceSynchronize() {
  parlab_sim::detail::complete_all_copies();
  return cudaSuccess;
}
cudaError_t cudaThreadSynchronize() { return cudaDeviceSynchronize(); }

cudaError_t cudaDeviceReset() {
  // Like destroying the CUDA context: every allocation goes away.
  parlab_sim::detail::complete_all_copies();
  parlab_sim::detail::release_all_allocations();
  cudaGetLastError();
  return cudaSuccess;
}

cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }

cudaError_t cudaDriverGetVersion(int* version) {
  if (version == nullptr) return record_error(cudaErrorInvalidValue);
  *version = 12000;
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int* version) {
  if (version == nullptr) return record_error(cudaErrorInvalidValue);
  *version = 12000;
  return cudaSuccess;
}
