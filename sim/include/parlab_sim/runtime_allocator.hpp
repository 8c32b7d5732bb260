#pragma once
// Memory for the simulator's own inline code that runs on a kernel's thread (a tile's
// exchange slots, cooperative_groups.h). A sim build renames a .cu object's calls of
// C++'s new and delete to the runtime's, which give a kernel's thread device heap
// memory (sim/src/runtime/kernel_new.cpp), and this code is compiled into that object:
// with the standard allocator its host-side bookkeeping would become global memory the
// race check watches. This allocator calls into the runtime instead, which uses the
// C++ library's memory.
#include <cstddef>

namespace parlab_sim::detail {

void* runtime_allocate(std::size_t bytes);
void runtime_deallocate(void* block, std::size_t bytes) noexcept;

template <class T>
struct RuntimeAllocator {
  using value_type = T;
  RuntimeAllocator() = default;
  template <class U>
  RuntimeAllocator(const RuntimeAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) { return static_cast<T*>(runtime_allocate(n * sizeof(T))); }
  void deallocate(T* block, std::size_t n) noexcept { runtime_deallocate(block, n * sizeof(T)); }
  friend bool operator==(const RuntimeAllocator&, const RuntimeAllocator&) noexcept { return true; }
};

}  // namespace parlab_sim::detail
