// cudaMalloc, cudaFree and the host/managed variants: guarded mappings recorded in the
// memory registry. Freed memory stays inaccessible for a while (use-after-free faults).
#include <vector>

#include "fault/signal_handlers.hpp"
#include "parlab_sim/memory.hpp"
#include "copies/deferred_copies.hpp"
#include "runtime/allocations.hpp"
#include "runtime/device_memory_budget.hpp"
#include "memory/device_pages.hpp"
#include "memory/guarded_mapping.hpp"
#include "runtime/leak_check.hpp"
#include "memory/memory_registry.hpp"

namespace parlab_sim::detail {
namespace {

bool counts_against_device_memory(MemoryKind kind) {
  return kind == MemoryKind::device || kind == MemoryKind::managed;
}

cudaError_t allocate(void** pointer, std::size_t bytes, MemoryKind kind) {
  if (pointer == nullptr) return record_error(cudaErrorInvalidValue);
  *pointer = nullptr;
  if (bytes == 0) return cudaSuccess;  // CUDA gives a null pointer and no error
  ensure_fault_handlers_installed();   // so a fault in this memory gets explained
  const bool budgeted = counts_against_device_memory(kind);
  if (budgeted && !reserve_device_memory(bytes)) return record_error(cudaErrorMemoryAllocation);
  MemoryRange range;
  if (!map_guarded(bytes, kind, range) || !add_allocation(range)) {
    if (budgeted) release_device_memory(bytes);
    return record_error(cudaErrorMemoryAllocation);
  }
  *pointer = reinterpret_cast<void*>(range.begin);
  return cudaSuccess;
}

}  // namespace

cudaError_t release(void* pointer, MemoryKind kind) {
  if (pointer == nullptr) return cudaSuccess;
  MemoryRange range;
  if (!take_and_quarantine(reinterpret_cast<std::uintptr_t>(pointer), kind, range)) {
    return cudaErrorInvalidValue;
  }
  if (counts_against_device_memory(kind)) release_device_memory(range.end - range.begin);
  if (kind == MemoryKind::device) forget_allocation_site(range.begin);
  return cudaSuccess;
}

void release_all_allocations() {
  std::vector<MemoryRange> live;
  MemoryRegistry::instance().for_each([&](const MemoryRange& range) {
    if (range.region_begin != 0 && range.kind != MemoryKind::freed) live.push_back(range);
  });
  for (const MemoryRange& range : live) release(reinterpret_cast<void*>(range.begin), range.kind);
}

}  // namespace parlab_sim::detail

using parlab_sim::detail::MemoryKind;
using parlab_sim::detail::record_error;

cudaError_t cudaMalloc(void** device_pointer, std::size_t bytes, std::source_location site) {
  const cudaError_t error = parlab_sim::detail::allocate(device_pointer, bytes, MemoryKind::device);
  if (error == cudaSuccess && *device_pointer != nullptr) {
    parlab_sim::detail::remember_allocation_site(reinterpret_cast<std::uintptr_t>(*device_pointer),
                                                 bytes, site);
  }
  return error;
}

// cudaFree, cudaFreeHost and cudaHostUnregister synchronize the device first: pending
// asynchronous copies land (copies/deferred_copies.hpp).
cudaError_t cudaFree(void* device_pointer) {
  parlab_sim::detail::complete_all_copies();
  if (parlab_sim::detail::release(device_pointer, MemoryKind::device) == cudaSuccess) {
    return cudaSuccess;
  }
  return record_error(parlab_sim::detail::release(device_pointer, MemoryKind::managed));
}

cudaError_t cudaMallocHost(void** host_pointer, std::size_t bytes) {
  return parlab_sim::detail::allocate(host_pointer, bytes, MemoryKind::pinned_host);
}

cudaError_t cudaHostAlloc(void** host_pointer, std::size_t bytes, unsigned int flags) {
  if ((flags & ~0x0fu) != 0) return record_error(cudaErrorInvalidValue);
  return cudaMallocHost(host_pointer, bytes);
}

cudaError_t cudaFreeHost(void* host_pointer) {
  parlab_sim::detail::complete_all_copies();
  return record_error(parlab_sim::detail::release(host_pointer, MemoryKind::pinned_host));
}

cudaError_t cudaMallocManaged(void** pointer, std::size_t bytes, unsigned int flags) {
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost) {
    return record_error(cudaErrorInvalidValue);
  }
  return parlab_sim::detail::allocate(pointer, bytes, MemoryKind::managed);
}

cudaError_t cudaHostRegister(void* host_pointer, std::size_t bytes, unsigned int) {
  using parlab_sim::detail::MemoryRange;
  if (host_pointer == nullptr || bytes == 0) return record_error(cudaErrorInvalidValue);
  const auto begin = reinterpret_cast<std::uintptr_t>(host_pointer);
  MemoryRange existing;
  if (parlab_sim::detail::MemoryRegistry::instance().find(begin, existing) &&
      existing.kind == MemoryKind::registered_host) {
    return record_error(cudaErrorHostMemoryAlreadyRegistered);
  }
  const MemoryRange range{begin, begin + bytes, 0, 0, MemoryKind::registered_host,
                          MemoryKind::registered_host};
  if (!parlab_sim::detail::MemoryRegistry::instance().add(range)) {
    return record_error(cudaErrorMemoryAllocation);
  }
  return cudaSuccess;
}

cudaError_t cudaHostUnregister(void* host_pointer) {
  parlab_sim::detail::complete_all_copies();
  parlab_sim::detail::MemoryRange range;
  if (!parlab_sim::detail::MemoryRegistry::instance().take(
          reinterpret_cast<std::uintptr_t>(host_pointer), MemoryKind::registered_host, range)) {
    return record_error(cudaErrorHostMemoryNotRegistered);
  }
  return cudaSuccess;
}

cudaError_t cudaHostGetDevicePointer(void** device_pointer, void* host_pointer, unsigned int flags) {
  parlab_sim::detail::MemoryRange range;
  const bool known = parlab_sim::detail::MemoryRegistry::instance().find(
      reinterpret_cast<std::uintptr_t>(host_pointer), range);
  if (device_pointer == nullptr || flags != 0 || !known ||
      (range.kind != MemoryKind::pinned_host && range.kind != MemoryKind::registered_host)) {
    return record_error(cudaErrorInvalidValue);
  }
  *device_pointer = host_pointer;  // one address space, as with CUDA's unified addressing
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes) {
  if (free_bytes == nullptr || total_bytes == nullptr) return record_error(cudaErrorInvalidValue);
  *total_bytes = parlab_sim::detail::device_memory_capacity();
  *free_bytes = *total_bytes - parlab_sim::detail::device_memory_in_use();
  return cudaSuccess;
}
