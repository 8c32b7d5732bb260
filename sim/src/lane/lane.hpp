#pragma once
// One CUDA thread (lane) of the running block, the fiber that runs it, and what this OS
// thread runs now. The block runner above (exec/block_runner) schedules lanes; the fault
// reports and the per-lane counters below it read only this.
#include <boost/context/fiber.hpp>
#include <cstdint>
#include <source_location>

#include "lane/dynamic_shared_buffer.hpp"
#include "lane/fiber_stack.hpp"
#include "parlab_sim/vector_types.hpp"

namespace parlab_sim::detail {

enum class LaneState : std::uint8_t { not_started, running, ready, at_barrier, at_warp, exited };

struct FiberSlot;

// One CUDA thread of the running block.
struct Lane {
  uint3 thread_idx{};
  unsigned linear = 0;
  LaneState state = LaneState::not_started;
  FiberSlot* fiber = nullptr;  // holds this lane's stack while it is suspended
  std::source_location barrier_site;
};

// A fiber that runs lanes one after another; it outlives blocks and launches.
struct FiberSlot {
  StackRange stack;                 // declared first: the context's deallocation writes it
  boost::context::fiber context;    // the suspended fiber (empty while it runs)
  boost::context::fiber scheduler;  // the worker's continuation (while it runs)
  Lane* lane = nullptr;
  void* fake_stack = nullptr;       // ASan's, while suspended (stack_switch_annotations.hpp)
};

// What a fault report names of the block this OS thread runs: set when a worker starts a
// block, kept until its next one (a fault between lanes still names the last kernel).
struct RunningBlock {
  const char* kernel_name = nullptr;
  const DynamicSharedBuffer* dynamic_shared = nullptr;
};

// The CUDA thread whose fiber runs on this OS thread: null on host threads and between
// lanes.
extern thread_local constinit Lane* t_lane;
extern thread_local constinit RunningBlock t_running_block;

}  // namespace parlab_sim::detail
