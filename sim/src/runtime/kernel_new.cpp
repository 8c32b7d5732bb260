// C++'s new and delete as a sim build calls them: the grader renames a .cu object's
// references to the global allocation functions (compile/compile_steps,
// kSimAllocationRenames: _Znwm to parlab_sim_new, ...), so a `new float[n]` in a kernel
// comes here, as its malloc does (runtime/kernel_malloc.cpp). A kernel's thread gets
// device heap memory (memory/device_heap.hpp), which the race check and the counters see
// as global memory, as CUDA's in-kernel new is; host code gets the C++ library's. A
// block the heap cannot give is a null pointer, as on a GPU (device code has no
// exceptions). The runtime's own code is never renamed, so its allocations stay the
// library's even when they happen on a kernel's thread.
#include <new>

#include "lane/lane.hpp"
#include "memory/device_heap.hpp"
#include "parlab_sim/runtime_allocator.hpp"
#include "parlab_sim/unsupported_feature.hpp"
#include "runtime/device_context.hpp"

namespace {

bool on_kernel_thread() { return parlab_sim::detail::t_lane != nullptr; }

// The device heap gives 16-byte aligned blocks; C++ gives even `new char[0]` an address.
void* device_new(std::size_t bytes, std::size_t alignment = 16) {
  if (alignment > 16) {
    parlab_sim::stop_at_unsupported_feature("new of a type aligned to more than 16 bytes in a kernel",
                                            nullptr, 0);
  }
  return parlab_sim::detail::device_heap_allocate(
      bytes == 0 ? 1 : bytes, parlab_sim::detail::device_context().limits[cudaLimitMallocHeapSize].load());
}

std::size_t bytes_of(std::align_val_t alignment) { return static_cast<std::size_t>(alignment); }

}  // namespace

extern "C" {

void* parlab_sim_new(std::size_t bytes) {
  return on_kernel_thread() ? device_new(bytes) : ::operator new(bytes);
}
void* parlab_sim_new_array(std::size_t bytes) {
  return on_kernel_thread() ? device_new(bytes) : ::operator new[](bytes);
}
void* parlab_sim_new_nothrow(std::size_t bytes, const std::nothrow_t& tag) noexcept {
  return on_kernel_thread() ? device_new(bytes) : ::operator new(bytes, tag);
}
void* parlab_sim_new_array_nothrow(std::size_t bytes, const std::nothrow_t& tag) noexcept {
  return on_kernel_thread() ? device_new(bytes) : ::operator new[](bytes, tag);
}
void* parlab_sim_new_aligned(std::size_t bytes, std::align_val_t alignment) {
  return on_kernel_thread() ? device_new(bytes, bytes_of(alignment)) : ::operator new(bytes, alignment);
}
void* parlab_sim_new_array_aligned(std::size_t bytes, std::align_val_t alignment) {
  return on_kernel_thread() ? device_new(bytes, bytes_of(alignment)) : ::operator new[](bytes, alignment);
}
void* parlab_sim_new_aligned_nothrow(std::size_t bytes, std::align_val_t alignment,
                                     const std::nothrow_t& tag) noexcept {
  return on_kernel_thread() ? device_new(bytes, bytes_of(alignment)) : ::operator new(bytes, alignment, tag);
}
void* parlab_sim_new_array_aligned_nothrow(std::size_t bytes, std::align_val_t alignment,
                                           const std::nothrow_t& tag) noexcept {
  return on_kernel_thread() ? device_new(bytes, bytes_of(alignment)) : ::operator new[](bytes, alignment, tag);
}

// A block of the device heap goes back to it, wherever it is deleted; any other block
// to the C++ library's matching function.
void parlab_sim_delete(void* block) noexcept {
  if (!parlab_sim::detail::device_heap_free(block)) ::operator delete(block);
}
void parlab_sim_delete_array(void* block) noexcept {
  if (!parlab_sim::detail::device_heap_free(block)) ::operator delete[](block);
}
void parlab_sim_delete_sized(void* block, std::size_t bytes) noexcept {
  if (!parlab_sim::detail::device_heap_free(block)) ::operator delete(block, bytes);
}
void parlab_sim_delete_array_sized(void* block, std::size_t bytes) noexcept {
  if (!parlab_sim::detail::device_heap_free(block)) ::operator delete[](block, bytes);
}
void parlab_sim_delete_aligned(void* block, std::align_val_t alignment) noexcept {
  if (!parlab_sim::detail::device_heap_free(block)) ::operator delete(block, alignment);
}
void parlab_sim_delete_array_aligned(void* block, std::align_val_t alignment) noexcept {
  if (!parlab_sim::detail::device_heap_free(block)) ::operator delete[](block, alignment);
}
void parlab_sim_delete_sized_aligned(void* block, std::size_t bytes, std::align_val_t alignment) noexcept {
  if (!parlab_sim::detail::device_heap_free(block)) ::operator delete(block, bytes, alignment);
}
void parlab_sim_delete_array_sized_aligned(void* block, std::size_t bytes, std::align_val_t alignment) noexcept {
  if (!parlab_sim::detail::device_heap_free(block)) ::operator delete[](block, bytes, alignment);
}
void parlab_sim_delete_nothrow(void* block, const std::nothrow_t& tag) noexcept {
  if (!parlab_sim::detail::device_heap_free(block)) ::operator delete(block, tag);
}
void parlab_sim_delete_array_nothrow(void* block, const std::nothrow_t& tag) noexcept {
  if (!parlab_sim::detail::device_heap_free(block)) ::operator delete[](block, tag);
}
void parlab_sim_delete_aligned_nothrow(void* block, std::align_val_t alignment, const std::nothrow_t& tag) noexcept {
  if (!parlab_sim::detail::device_heap_free(block)) ::operator delete(block, alignment, tag);
}
void parlab_sim_delete_array_aligned_nothrow(void* block, std::align_val_t alignment,
                                             const std::nothrow_t& tag) noexcept {
  if (!parlab_sim::detail::device_heap_free(block)) ::operator delete[](block, alignment, tag);
}

}  // extern "C"

namespace parlab_sim::detail {

// The simulator's own inline code in a submission's object (parlab_sim/runtime_allocator.hpp):
// the C++ library's memory, never the device heap, on any thread.
void* runtime_allocate(std::size_t bytes) { return ::operator new(bytes); }
void runtime_deallocate(void* block, std::size_t bytes) noexcept { ::operator delete(block, bytes); }

}  // namespace parlab_sim::detail
