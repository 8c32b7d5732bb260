#pragma once
// The device heap: what malloc and free give a kernel's thread (CUDA's in-kernel malloc).
// On a GPU that memory is global memory, so the race check and the counters must see a
// kernel's accesses to it as they see a cudaMalloc block's. In the simulator a kernel is
// host code, and the C library's malloc would hand it host heap memory that no check
// covers: a block could stage data there and compute from it unseen. So a sim build's
// calls to malloc and free (parlab_sim/checked_library_calls.hpp) come to the runtime,
// which serves a kernel's thread from one arena made at its first in-kernel malloc, as
// large as cudaLimitMallocHeapSize was then (8 MiB unless the program set it), and host
// code from the C library. An allocation past the heap's size (the bytes not freed) is a
// null pointer, as on a GPU. Fresh allocations hold NaN bytes, as fresh device memory
// does here.
//
// A block freed in a kernel gets its addresses back only when the next launch starts:
// the race check between blocks keeps a launch's writes by address, and another block
// handed the same bytes by a later malloc would read as a block overwriting what the
// first wrote, where the allocator orders the two. So the arena reserves far more
// addresses than the heap's size (16 times, at most 1 GiB beyond it; untouched pages cost
// nothing), and the size is counted in bytes not freed.
#include <cstddef>
#include <cstdint>

namespace parlab_sim::detail {

// A block of `bytes` (16-byte aligned) from the arena, made `heap_bytes` large if it does
// not exist yet; null when it has no such free stretch (or `bytes` is 0).
void* device_heap_allocate(std::size_t bytes, std::size_t heap_bytes);

// Frees a block device_heap_allocate gave; false for any other pointer (not the heap's).
bool device_heap_free(void* block);

// A launch starts: the blocks freed so far give their addresses back.
void device_heap_reuse_freed();

// Whether `address` lies in the arena (lock-free: the race check asks on every access).
bool in_device_heap(std::uintptr_t address);

// The arena's extent ([begin, begin + bytes)); begin 0 before the first allocation.
struct DeviceHeapExtent {
  std::uintptr_t begin = 0;
  std::size_t bytes = 0;
};
DeviceHeapExtent device_heap_extent();

}  // namespace parlab_sim::detail
