// cudaMemcpy, cudaMemset and the symbol copies. Copies are synchronous, except an
// asynchronous copy from the device into page-locked host memory, which lands at the
// next synchronization that orders it, and one from page-locked host memory to the
// device, which reads its source as late as that (copies/deferred_copies.hpp). The device side of a copy must lie inside one
// allocation, as CUDA checks; otherwise the call fails with cudaErrorInvalidValue.
#include <cstring>

#include "parlab_sim/memory.hpp"
#include "copies/deferred_copies.hpp"
#include "memory/device_pages.hpp"
#include "memory/memory_registry.hpp"

namespace parlab_sim::detail {
namespace {

bool is_device_accessible(MemoryKind kind) { return kind != MemoryKind::freed; }

bool device_range_ok(const void* pointer, std::size_t bytes) {
  const auto begin = reinterpret_cast<std::uintptr_t>(pointer);
  MemoryRange range;
  if (!MemoryRegistry::instance().find(begin, range) || !is_device_accessible(range.kind)) {
    return false;
  }
  // Not from the slack after the end (memory/guarded_mapping.hpp) either.
  return begin >= range.begin && begin <= range.end && bytes <= range.end - begin;
}

// When a pointer lies in a known allocation, the copy must fit inside it.
bool fits_if_known(const void* pointer, std::size_t bytes) {
  MemoryRange range;
  if (!MemoryRegistry::instance().find(reinterpret_cast<std::uintptr_t>(pointer), range)) {
    return true;
  }
  return device_range_ok(pointer, bytes);
}

cudaError_t check_copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  if (dst == nullptr || src == nullptr) return cudaErrorInvalidValue;
  switch (kind) {
    case cudaMemcpyHostToHost: return cudaSuccess;
    case cudaMemcpyHostToDevice:
      return device_range_ok(dst, bytes) ? cudaSuccess : cudaErrorInvalidValue;
    case cudaMemcpyDeviceToHost:
      return device_range_ok(src, bytes) ? cudaSuccess : cudaErrorInvalidValue;
    case cudaMemcpyDeviceToDevice:
      return device_range_ok(dst, bytes) && device_range_ok(src, bytes) ? cudaSuccess
                                                                          : cudaErrorInvalidValue;
    case cudaMemcpyDefault:
      return fits_if_known(dst, bytes) && fits_if_known(src, bytes) ? cudaSuccess
                                                                      : cudaErrorInvalidValue;
  }
  return cudaErrorInvalidMemcpyDirection;
}

}  // namespace

cudaError_t copy_to_symbol(void* symbol, std::size_t symbol_bytes, const void* src,
                           std::size_t bytes, std::size_t offset, cudaMemcpyKind kind) {
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault) {
    return record_error(cudaErrorInvalidMemcpyDirection);
  }
  if (offset > symbol_bytes || bytes > symbol_bytes - offset || (bytes > 0 && src == nullptr)) {
    return record_error(cudaErrorInvalidValue);
  }
  const DeviceMemoryOpen open(src);  // the source may be device memory
  if (bytes > 0) std::memmove(static_cast<char*>(symbol) + offset, src, bytes);
  return cudaSuccess;
}

cudaError_t copy_from_symbol(void* dst, const void* symbol, std::size_t symbol_bytes,
                             std::size_t bytes, std::size_t offset, cudaMemcpyKind kind) {
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault) {
    return record_error(cudaErrorInvalidMemcpyDirection);
  }
  if (offset > symbol_bytes || bytes > symbol_bytes - offset || (bytes > 0 && dst == nullptr)) {
    return record_error(cudaErrorInvalidValue);
  }
  const DeviceMemoryOpen open(dst);  // the destination may be device memory
  if (bytes > 0) std::memmove(dst, static_cast<const char*>(symbol) + offset, bytes);
  return cudaSuccess;
}

cudaError_t register_symbol(const void* symbol, std::size_t symbol_bytes) {
  const auto begin = reinterpret_cast<std::uintptr_t>(symbol);
  MemoryRange existing;
  if (MemoryRegistry::instance().find(begin, existing) && existing.kind == MemoryKind::symbol) {
    return cudaSuccess;
  }
  const MemoryRange range{begin, begin + symbol_bytes, 0, 0, MemoryKind::symbol, MemoryKind::symbol};
  return MemoryRegistry::instance().add(range) ? cudaSuccess : record_error(cudaErrorMemoryAllocation);
}

}  // namespace parlab_sim::detail

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  if (bytes == 0) return cudaSuccess;
  if (const cudaError_t error = parlab_sim::detail::check_copy(dst, src, bytes, kind);
      error != cudaSuccess) {
    return parlab_sim::detail::record_error(error);
  }
  const parlab_sim::detail::DeviceMemoryOpen open(dst, src);  // the runtime's own access
  // A synchronous copy on the legacy default stream waits for the work of every
  // blocking stream, earlier asynchronous copies included (not cudaStreamNonBlocking ones).
  parlab_sim::detail::complete_stream_copies(nullptr);
  parlab_sim::detail::complete_copies_touching(src, bytes);
  parlab_sim::detail::complete_copies_touching(dst, bytes);
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream, std::source_location site) {
  using namespace parlab_sim::detail;
  if (!is_valid_stream(stream)) return record_error(cudaErrorInvalidResourceHandle);
  if (bytes == 0) return cudaSuccess;
  if (const cudaError_t error = check_copy(dst, src, bytes, kind); error != cudaSuccess) {
    return record_error(error);
  }
  const DeviceMemoryOpen open(dst, src);  // a deferred copy to the host takes the bytes now
  if (copy_is_deferred(dst, src, kind)) {
    defer_copy_to_host(stream, dst, src, bytes, site);
    return cudaSuccess;
  }
  if (copy_to_device_is_deferred(dst, src, kind)) {
    defer_copy_to_device(stream, dst, src, bytes, site);
    return cudaSuccess;
  }
  // Into pageable memory the copy is synchronous (after its stream's earlier work); any
  // other copy reading or overwriting a pending copy's host bytes comes after it.
  if (kind == cudaMemcpyDeviceToHost) complete_stream_copies(stream);
  complete_copies_touching(src, bytes);
  complete_copies_touching(dst, bytes);
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemset(void* device_pointer, int value, std::size_t bytes) {
  if (bytes == 0) return cudaSuccess;
  if (device_pointer == nullptr || !parlab_sim::detail::device_range_ok(device_pointer, bytes)) {
    return parlab_sim::detail::record_error(cudaErrorInvalidValue);
  }
  const parlab_sim::detail::DeviceMemoryOpen open(device_pointer);
  parlab_sim::detail::complete_copies_touching(device_pointer, bytes);
  std::memset(device_pointer, value, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void* device_pointer, int value, std::size_t bytes,
                            cudaStream_t stream) {
  if (!parlab_sim::detail::is_valid_stream(stream)) {
    return parlab_sim::detail::record_error(cudaErrorInvalidResourceHandle);
  }
  return cudaMemset(device_pointer, value, bytes);
}
