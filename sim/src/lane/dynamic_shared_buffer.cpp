#include "lane/dynamic_shared_buffer.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <new>

#include "device/launch_limits.hpp"
#include "lane/shared_poison.hpp"

namespace parlab_sim::detail {

DynamicSharedBuffer::DynamicSharedBuffer() {
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t data = (kSharedMemoryOptinBytes + page - 1) / page * page;
  mapped_bytes_ = data + page;
  void* region = mmap(nullptr, mapped_bytes_, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (region == MAP_FAILED) throw std::bad_alloc();
  begin_ = reinterpret_cast<std::uintptr_t>(region);
  guard_ = begin_ + data;
  guard_end_ = guard_ + page;
  mprotect(reinterpret_cast<void*>(guard_), page, PROT_NONE);
}

DynamicSharedBuffer::~DynamicSharedBuffer() {
  munmap(reinterpret_cast<void*>(begin_), mapped_bytes_);
}

std::byte* DynamicSharedBuffer::place(std::size_t bytes) {
  placed_bytes_ = bytes;
  const std::size_t rounded = (bytes + 15) / 16 * 16;
  auto* start = reinterpret_cast<std::byte*>(guard_ - rounded);
  // Poisoned for every block (lane/shared_poison.hpp): a GPU's shared memory starts
  // with whatever was there, never with zeros or this kernel's previous block's values.
  fill_shared_poison(start, rounded);
  return start;
}

}  // namespace parlab_sim::detail
