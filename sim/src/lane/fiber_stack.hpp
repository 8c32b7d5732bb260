#pragma once
// Stacks for the fibers that run CUDA threads: fixed size with a guard page below, so
// a stack overflow faults instead of corrupting a neighbour, and the fault handler can
// name it. The size is PARLAB_SIM_STACK_KIB (default 64).
#include <boost/context/protected_fixedsize_stack.hpp>
#include <boost/context/stack_context.hpp>
#include <cstddef>
#include <cstdint>

namespace parlab_sim::detail {

struct StackRange {
  std::uintptr_t guard_begin = 0;  // lowest address; the guard page starts here
  std::uintptr_t guard_end = 0;
  std::uintptr_t top = 0;
};

std::size_t fiber_stack_bytes();

// A protected_fixedsize_stack that tells its owner where the stack and guard are.
class RecordingStackAllocator {
 public:
  RecordingStackAllocator(std::size_t bytes, StackRange* range) : inner_(bytes), range_(range) {}
  boost::context::stack_context allocate();
  void deallocate(boost::context::stack_context& context) noexcept;

 private:
  boost::context::protected_fixedsize_stack inner_;
  StackRange* range_;
};

}  // namespace parlab_sim::detail
