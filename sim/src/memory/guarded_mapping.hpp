#pragma once
// Memory handed out by cudaMalloc & co.: its own mapping, with an inaccessible guard
// page before it and one as close as possible after its last byte. The start is
// 256-byte aligned, as CUDA guarantees (code that takes a float4 path when a pointer is
// 16-byte aligned takes it for every size, as on a GPU), so the data ends up to 255
// bytes before the guard page: the slack, [end, accessible_end). An access past the
// end faults at once when the size is a multiple of 256; an access into the slack is
// caught only by the check build's access hooks (exec/race_check.cpp,
// docs/simulation.md "Faults").
#include <cstddef>
#include <cstdint>

#include "memory/memory_registry.hpp"

namespace parlab_sim::detail {

// CUDA's alignment of every cudaMalloc'd pointer.
inline constexpr std::uintptr_t kAllocationAlignment = 256;

// Maps `bytes` (> 0) with guard pages, filled (slack included) with 0xff bytes (NaN
// floats, -1 ints), since cudaMalloc does not clear memory either. False when out of
// memory.
bool map_guarded(std::size_t bytes, MemoryKind kind, MemoryRange& out);

// The accessible pages of a range map_guarded made: [accessible_begin, accessible_end)
// holds [begin, end), the slack after it and, before `begin`, the rest of its first
// page. For any other range, [begin, end).
std::uintptr_t accessible_begin(const MemoryRange& range);
std::uintptr_t accessible_end(const MemoryRange& range);

// Makes a freed range inaccessible and gives its pages back, keeping the addresses
// reserved for a while so that a use after free is recognized; older freed ranges are
// unmapped for good.
void quarantine(const MemoryRange& range);

}  // namespace parlab_sim::detail
