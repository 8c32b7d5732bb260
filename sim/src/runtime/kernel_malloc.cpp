// malloc and free as a sim build calls them (parlab_sim/checked_library_calls.hpp): a
// kernel's thread gets device heap memory (memory/device_heap.hpp), which the race check
// and the counters see as global memory; host code gets the C library's. The runtime's
// own sources never include that header, so the calls here are the C library's.
#include <cstdlib>

#include "lane/lane.hpp"
#include "memory/device_heap.hpp"
#include "runtime/device_context.hpp"

extern "C" {

void* parlab_sim_malloc(std::size_t bytes) noexcept {
  if (parlab_sim::detail::t_lane == nullptr) return std::malloc(bytes);
  return parlab_sim::detail::device_heap_allocate(
      bytes, parlab_sim::detail::device_context().limits[cudaLimitMallocHeapSize].load());
}

void parlab_sim_free(void* block) noexcept {
  if (parlab_sim::detail::device_heap_free(block)) return;
  std::free(block);
}

}  // extern "C"
