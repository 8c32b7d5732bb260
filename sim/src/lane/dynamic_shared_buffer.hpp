#pragma once
// A worker's dynamic shared memory (extern __shared__): room for the largest opt-in
// size, followed by a guard page. Each launch's buffer is placed so that it ends at
// the guard page, so reading or writing past the size given at launch faults and is
// reported like an out-of-bounds access to device memory.
#include <cstddef>
#include <cstdint>

namespace parlab_sim::detail {

class DynamicSharedBuffer {
 public:
  DynamicSharedBuffer();
  ~DynamicSharedBuffer();
  DynamicSharedBuffer(const DynamicSharedBuffer&) = delete;
  DynamicSharedBuffer& operator=(const DynamicSharedBuffer&) = delete;

  // Start of a `bytes`-byte buffer (16-byte aligned) ending at the guard page.
  std::byte* place(std::size_t bytes);

  bool in_guard(std::uintptr_t address) const { return address >= guard_ && address < guard_end_; }
  bool in_buffer(std::uintptr_t address) const { return address >= begin_ && address < guard_; }
  std::size_t placed_bytes() const { return placed_bytes_; }

 private:
  std::uintptr_t begin_ = 0;
  std::uintptr_t guard_ = 0;
  std::uintptr_t guard_end_ = 0;
  std::size_t mapped_bytes_ = 0;
  std::size_t placed_bytes_ = 0;
};

}  // namespace parlab_sim::detail
