#pragma once
// Memory handed out by cudaMalloc & co.: its own mapping, with an inaccessible guard
// page before it and one right after its last byte, so an access just past the end
// (the usual off-by-one) faults at once. The start is aligned to the largest power of
// two dividing the size (up to the page size): enough for the element type of an array
// of that size, but not CUDA's 256 bytes for every size.
#include <cstddef>
#include <cstdint>

#include "runtime/memory_registry.hpp"

namespace parlab_sim::detail {

// Maps `bytes` (> 0) with guard pages, filled with 0xff bytes (NaN floats, -1 ints),
// since cudaMalloc does not clear memory either. False when out of memory.
bool map_guarded(std::size_t bytes, MemoryKind kind, MemoryRange& out);

// Makes a freed range inaccessible and gives its pages back, keeping the addresses
// reserved for a while so that a use after free is recognized; older freed ranges are
// unmapped for good.
void quarantine(const MemoryRange& range);

}  // namespace parlab_sim::detail
