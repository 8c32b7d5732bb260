// Calls that change placement, speed or bookkeeping, never results
// (parlab_sim/runtime_hints.hpp): their arguments are checked as CUDA checks them, the
// flags and limits are remembered so that reading them back answers what was set.
#include "parlab_sim/runtime_hints.hpp"

#include <atomic>
#include <cstdint>

#include "device/launch_limits.hpp"
#include "runtime/allocations.hpp"
#include "memory/memory_registry.hpp"
#include "runtime/device_context.hpp"

namespace parlab_sim::detail {
namespace {

// [pointer, pointer + bytes) inside one cudaMallocManaged allocation.
bool is_managed_range(const void* pointer, std::size_t bytes) {
  MemoryRange range;
  const auto begin = reinterpret_cast<std::uintptr_t>(pointer);
  if (pointer == nullptr || bytes == 0 || !MemoryRegistry::instance().find(begin, range)) return false;
  return range.kind == MemoryKind::managed && begin >= range.begin && begin <= range.end &&
         bytes <= range.end - begin;
}

cudaError_t check_placement(const void* pointer, std::size_t bytes, bool device_known) {
  if (!device_known) return record_error(cudaErrorInvalidDevice);
  return is_managed_range(pointer, bytes) ? cudaSuccess : record_error(cudaErrorInvalidValue);
}

bool known_device(int device) { return device == 0 || device == cudaCpuDeviceId; }

bool known_location(cudaMemLocation location) {
  return (location.type == cudaMemLocationTypeDevice && location.id == 0) ||
         location.type == cudaMemLocationTypeHost ||
         location.type == cudaMemLocationTypeHostNuma ||
         location.type == cudaMemLocationTypeHostNumaCurrent;
}

bool known_limit(cudaLimit limit) {
  return static_cast<int>(limit) >= 0 &&
         static_cast<std::size_t>(limit) < kDeviceLimitCount;
}

}  // namespace

cudaError_t function_attributes(cudaFuncAttributes* attributes, const void* kernel) {
  if (attributes == nullptr) return record_error(cudaErrorInvalidValue);
  if (kernel == nullptr) return record_error(cudaErrorInvalidDeviceFunction);
  *attributes = cudaFuncAttributes{};
  attributes->maxThreadsPerBlock = static_cast<int>(kMaxThreadsPerBlock);
  attributes->ptxVersion = 80;
  attributes->binaryVersion = 80;
  attributes->maxDynamicSharedSizeBytes = static_cast<int>(dynamic_shared_limit(kernel));
  attributes->preferredShmemCarveout = -1;
  return cudaSuccess;
}

}  // namespace parlab_sim::detail

using parlab_sim::detail::record_error;

cudaError_t cudaMemPrefetchAsync(const void* pointer, std::size_t bytes, int device,
                                 cudaStream_t stream) {
  if (!parlab_sim::detail::is_valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  return parlab_sim::detail::check_placement(pointer, bytes, parlab_sim::detail::known_device(device));
}

cudaError_t cudaMemPrefetchAsync(const void* pointer, std::size_t bytes, cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream) {
  if (!parlab_sim::detail::is_valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  if (flags != 0) return record_error(cudaErrorInvalidValue);
  return parlab_sim::detail::check_placement(pointer, bytes,
                                             parlab_sim::detail::known_location(location));
}

cudaError_t cudaMemAdvise(const void* pointer, std::size_t bytes, cudaMemoryAdvise advice,
                          int device) {
  if (advice < cudaMemAdviseSetReadMostly || advice > cudaMemAdviseUnsetAccessedBy) {
    return record_error(cudaErrorInvalidValue);
  }
  return parlab_sim::detail::check_placement(pointer, bytes, parlab_sim::detail::known_device(device));
}

cudaError_t cudaMemAdvise(const void* pointer, std::size_t bytes, cudaMemoryAdvise advice,
                          cudaMemLocation location) {
  if (advice < cudaMemAdviseSetReadMostly || advice > cudaMemAdviseUnsetAccessedBy) {
    return record_error(cudaErrorInvalidValue);
  }
  return parlab_sim::detail::check_placement(pointer, bytes,
                                             parlab_sim::detail::known_location(location));
}

cudaError_t cudaMallocAsync(void** device_pointer, std::size_t bytes, cudaStream_t stream,
                            std::source_location site) {
  if (!parlab_sim::detail::is_valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  return cudaMalloc(device_pointer, bytes, site);
}

cudaError_t cudaFreeAsync(void* device_pointer, cudaStream_t stream) {
  if (!parlab_sim::detail::is_valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  return record_error(parlab_sim::detail::release(device_pointer, parlab_sim::detail::MemoryKind::device));
}

cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  constexpr unsigned int known = cudaDeviceScheduleMask | cudaDeviceMapHost | cudaDeviceLmemResizeToMax;
  if ((flags & ~known) != 0 || (flags & cudaDeviceScheduleMask) == 0x03 ||
      (flags & cudaDeviceScheduleMask) > cudaDeviceScheduleBlockingSync) {
    return record_error(cudaErrorInvalidValue);
  }
  parlab_sim::detail::device_context().device_flags = flags;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
  if (flags == nullptr) return record_error(cudaErrorInvalidValue);
  *flags = parlab_sim::detail::device_context().device_flags | cudaDeviceMapHost;  // mapped memory is always on
  return cudaSuccess;
}

cudaError_t cudaDeviceSetLimit(cudaLimit limit, std::size_t value) {
  if (!parlab_sim::detail::known_limit(limit)) return record_error(cudaErrorInvalidValue);
  parlab_sim::detail::device_context().limits[limit] = value;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(std::size_t* value, cudaLimit limit) {
  if (value == nullptr || !parlab_sim::detail::known_limit(limit)) {
    return record_error(cudaErrorInvalidValue);
  }
  *value = parlab_sim::detail::device_context().limits[limit];
  return cudaSuccess;
}

cudaError_t cudaCtxResetPersistingL2Cache() { return cudaSuccess; }

cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  if (least != nullptr) *least = 0;
  if (greatest != nullptr) *greatest = 0;
  return cudaSuccess;
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int) {
  return cudaStreamCreateWithFlags(stream, flags);  // priorities are clamped to the range: 0
}

cudaError_t cudaStreamGetPriority(cudaStream_t stream, int* priority) {
  if (priority == nullptr) return record_error(cudaErrorInvalidValue);
  if (!parlab_sim::detail::is_valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  *priority = 0;
  return cudaSuccess;
}

cudaError_t cudaProfilerStart() { return cudaSuccess; }
cudaError_t cudaProfilerStop() { return cudaSuccess; }
