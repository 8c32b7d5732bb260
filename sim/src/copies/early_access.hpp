#pragma once
// Host code touching the destination of an asynchronous copy (or writing the source of
// one to the device) before the synchronization that orders it (copies/deferred_copies.hpp). The SIGSEGV handler records the access
// here (no allocation, no lock); the findings are written later, at the next
// synchronization or at exit, naming the line of the access and the cudaMemcpyAsync.
#include <cstddef>
#include <cstdint>

namespace parlab_sim::detail {

inline constexpr const char* kFindingUnsynchronizedAccess = "unsynchronized_host_access";

struct EarlyAccess {
  static constexpr int kFrames = 12;
  bool write = false;
  const void* pc = nullptr;              // the faulting instruction
  void* frames[kFrames] = {};            // return addresses of its callers
  int frame_count = 0;
  const char* copy_file = nullptr;       // the cudaMemcpyAsync call (std::source_location)
  unsigned copy_line = 0;
  unsigned stream_number = 0;            // 0: the default stream
  std::uintptr_t offset = 0;             // of the copy's destination in its buffer
  std::size_t copy_bytes = 0;
  std::size_t buffer_bytes = 0;
  const char* kernel_name = nullptr;     // not a copy: a kernel's writes to managed memory
  bool source_of_copy_to_device = false; // a write into the source of a copy to the device
  bool source_already_sent = false;      // ... that had landed already (a kernel needed it)
};

// Signal-safe. Dropped when too many are waiting to be reported.
void record_early_access(const EarlyAccess& access);
// Turns the recorded accesses into findings (one per line of access and copy).
void report_early_accesses();

}  // namespace parlab_sim::detail
