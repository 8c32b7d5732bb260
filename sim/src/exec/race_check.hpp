#pragma once
// The race check (docs/simulation.md, "Race check"): the student's code, compiled with
// g++'s ThreadSanitizer instrumentation (-fsanitize=thread, linked WITHOUT libtsan),
// calls a hook before every load and store (tsan_hooks.cpp). When
// PARLAB_SIM_RACE_CHECK=1, accesses by a CUDA thread to shared memory or device memory
// are recorded in its block's shadow (block_shadow.hpp) and a conflict between two
// threads of the block in the same barrier interval is reported as a finding naming
// the array, both threads, both source lines and the last barrier.
#include <cstddef>
#include <cstdint>

#include "config/locked_state.hpp"

namespace parlab_sim::detail {

// g_locked.race_check_enabled: set once from PARLAB_SIM_RACE_CHECK at start-up;
// g_locked.access_hooks_enabled: the race check or the memory-access counters
// (PARLAB_SIM_COUNTERS=1) want accesses (config/locked_state).

// Called by the hooks (only when g_locked.access_hooks_enabled).
void race_check_access(const volatile void* address, std::size_t bytes, bool write, bool atomic,
                       const void* pc);

// The running block's happens-before state and its linear index, for an atomic that
// orders memory between blocks (race/atomic_order.hpp); null outside a kernel or
// without the race check.
class BlockOrder;
BlockOrder* ordering_block(std::uint64_t& block);

// A launch begins: snapshot the device allocations a kernel may touch.
void race_check_begin_launch();

// The running block ends: reports the races whose cause needed the rest of the block
// (race_check.cpp, "pending"). Called on the block's worker thread.
void race_check_finish_block();

}  // namespace parlab_sim::detail
