#pragma once
// Device, pinned and managed memory, copies and memsets, __device__/__constant__
// symbols. Device memory is host memory with guard pages around each allocation
// (docs/simulation-design.md); copies run synchronously, except a device-to-host cudaMemcpyAsync
// into pinned memory, which lands at the synchronization that orders it.
#include <cstddef>
#include <source_location>

#include "parlab_sim/errors.hpp"
#include "parlab_sim/streams_events.hpp"

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02

// The call site is kept for the device-memory leak report at exit.
cudaError_t cudaMalloc(void** device_pointer, std::size_t bytes,
                       std::source_location site = std::source_location::current());
cudaError_t cudaFree(void* device_pointer);
cudaError_t cudaMallocHost(void** host_pointer, std::size_t bytes);
cudaError_t cudaHostAlloc(void** host_pointer, std::size_t bytes, unsigned int flags);
cudaError_t cudaFreeHost(void* host_pointer);
cudaError_t cudaMallocManaged(void** pointer, std::size_t bytes,
                              unsigned int flags = cudaMemAttachGlobal);
cudaError_t cudaHostRegister(void* host_pointer, std::size_t bytes, unsigned int flags);
cudaError_t cudaHostUnregister(void* host_pointer);
cudaError_t cudaHostGetDevicePointer(void** device_pointer, void* host_pointer,
                                     unsigned int flags);
cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes);

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind);
// The call site names the copy in the finding of a read before it completed.
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes,
                            cudaMemcpyKind kind, cudaStream_t stream = nullptr,
                            std::source_location site = std::source_location::current());
cudaError_t cudaMemset(void* device_pointer, int value, std::size_t bytes);
cudaError_t cudaMemsetAsync(void* device_pointer, int value, std::size_t bytes,
                            cudaStream_t stream = nullptr);

// The typed overloads cuda_runtime.h adds, so `cudaMalloc(&d_x, n)` compiles.
template <class T>
cudaError_t cudaMalloc(T** device_pointer, std::size_t bytes,
                       std::source_location site = std::source_location::current()) {
  return cudaMalloc(reinterpret_cast<void**>(device_pointer), bytes, site);
}
template <class T>
cudaError_t cudaMallocHost(T** host_pointer, std::size_t bytes) {
  return cudaMallocHost(reinterpret_cast<void**>(host_pointer), bytes);
}
template <class T>
cudaError_t cudaHostAlloc(T** host_pointer, std::size_t bytes, unsigned int flags) {
  return cudaHostAlloc(reinterpret_cast<void**>(host_pointer), bytes, flags);
}
template <class T>
cudaError_t cudaMallocManaged(T** pointer, std::size_t bytes,
                              unsigned int flags = cudaMemAttachGlobal) {
  return cudaMallocManaged(reinterpret_cast<void**>(pointer), bytes, flags);
}

namespace parlab_sim::detail {
// A __device__ or __constant__ variable is an ordinary global in sim mode; these
// check the byte range against the variable's size, as CUDA does.
cudaError_t copy_to_symbol(void* symbol, std::size_t symbol_bytes, const void* src,
                           std::size_t bytes, std::size_t offset, cudaMemcpyKind kind);
cudaError_t copy_from_symbol(void* dst, const void* symbol, std::size_t symbol_bytes,
                             std::size_t bytes, std::size_t offset, cudaMemcpyKind kind);
// Makes the symbol's address a legal kernel argument (see launch.hpp).
cudaError_t register_symbol(const void* symbol, std::size_t symbol_bytes);
}  // namespace parlab_sim::detail

template <class T>
cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, std::size_t bytes,
                               std::size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return parlab_sim::detail::copy_to_symbol(const_cast<T*>(&symbol), sizeof(T), src, bytes,
                                            offset, kind);
}
template <class T>
cudaError_t cudaMemcpyToSymbolAsync(const T& symbol, const void* src, std::size_t bytes,
                                    std::size_t offset = 0,
                                    cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                    cudaStream_t = nullptr) {
  return cudaMemcpyToSymbol(symbol, src, bytes, offset, kind);
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, std::size_t bytes,
                                 std::size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return parlab_sim::detail::copy_from_symbol(dst, &symbol, sizeof(T), bytes, offset, kind);
}
template <class T>
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, std::size_t bytes,
                                      std::size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                      cudaStream_t = nullptr) {
  return cudaMemcpyFromSymbol(dst, symbol, bytes, offset, kind);
}
template <class T>
cudaError_t cudaGetSymbolAddress(void** device_pointer, const T& symbol) {
  if (device_pointer == nullptr) return parlab_sim::detail::record_error(cudaErrorInvalidValue);
  *device_pointer = const_cast<T*>(&symbol);
  return parlab_sim::detail::register_symbol(&symbol, sizeof(T));
}
template <class T>
cudaError_t cudaGetSymbolSize(std::size_t* bytes, const T&) {
  if (bytes == nullptr) return parlab_sim::detail::record_error(cudaErrorInvalidValue);
  *bytes = sizeof(T);
  return cudaSuccess;
}
