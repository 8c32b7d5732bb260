#pragma once
// Releasing simulator-owned allocations, shared by cudaFree & co. and cudaDeviceReset.
#include "parlab_sim/errors.hpp"
#include "memory/memory_registry.hpp"

namespace parlab_sim::detail {

// cudaErrorInvalidValue (not recorded) unless `pointer` starts a live range of `kind`.
cudaError_t release(void* pointer, MemoryKind kind);
void release_all_allocations();

}  // namespace parlab_sim::detail
