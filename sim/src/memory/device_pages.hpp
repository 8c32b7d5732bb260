#pragma once
// Host code cannot touch device memory: on a GPU, dereferencing a cudaMalloc pointer in
// host code is a segmentation fault, while here device memory is ordinary host memory.
// So the pages of every device allocation (cudaMalloc, cudaMallocPitch,
// cudaMallocAsync; not managed or pinned memory, which host code may use) are
// inaccessible whenever no kernel runs and the runtime is not copying or setting
// device memory; a host access faults and is reported with its line
// (fault/host_device_access.hpp). Protection is per process: while a kernel or a
// runtime copy runs on one thread, another host thread's access to the allocations
// they opened goes unnoticed.
#include <cstdint>

#include "memory/memory_registry.hpp"

namespace parlab_sim::detail {

// Opens device pages for as long as it lives (nested and from several threads: pages
// close when the last opening that covers them ends). cuBLAS may reach any allocation:
// every one opens. A copy or memset knows its two ends: only the allocations holding
// them open, so that its cost does not grow with every other allocation's size
// (mprotect's cost grows with the pages it changes). A kernel opens what it touches
// (open_for_kernel).
class DeviceMemoryOpen {
 public:
  DeviceMemoryOpen();  // every device allocation
  // The device allocations holding `first` and `second` (either may be host memory or null).
  explicit DeviceMemoryOpen(const void* first, const void* second = nullptr);
  ~DeviceMemoryOpen();
  DeviceMemoryOpen(const DeviceMemoryOpen&) = delete;
  DeviceMemoryOpen& operator=(const DeviceMemoryOpen&) = delete;

 private:
  bool all_ = false;
  std::uintptr_t ranges_[2] = {0, 0};  // the begins of the allocations opened; 0: none
};

// A kernel's thread touched a closed page of a live device allocation (the SIGSEGV
// handler): opens that allocation until the launch ends and returns true (retry the
// access); false for any other address. Signal-safe: lock-free, one mprotect.
bool open_for_kernel(std::uintptr_t address);
// At a launch's end: closes what its kernel opened (unless an opening above holds it).
void close_kernel_openings();

// Records a new allocation in the memory registry; a device allocation's pages are
// closed unless device memory is open now. False when the registry is full.
bool add_allocation(const MemoryRange& range);

// Takes the live range starting at `begin` of `kind` out of the registry and
// quarantines it (memory/guarded_mapping.hpp), so that no opening reopens its pages.
bool take_and_quarantine(std::uintptr_t begin, MemoryKind kind, MemoryRange& out);

}  // namespace parlab_sim::detail
