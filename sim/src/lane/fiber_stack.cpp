#include "lane/fiber_stack.hpp"

#include "config/runtime_settings.hpp"

#include <unistd.h>

#include <cstdlib>
#include <string>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

namespace parlab_sim::detail {

std::size_t fiber_stack_bytes() {
  return std::size_t{runtime_settings().stack_kib} * 1024;
}

boost::context::stack_context RecordingStackAllocator::allocate() {
  boost::context::stack_context context = inner_.allocate();
  const auto top = reinterpret_cast<std::uintptr_t>(context.sp);
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  range_->top = top;
  range_->guard_begin = top - context.size;
  range_->guard_end = range_->guard_begin + page;
  return context;
}

void RecordingStackAllocator::deallocate(boost::context::stack_context& context) noexcept {
  *range_ = StackRange{};
#if defined(__SANITIZE_ADDRESS__)
  // The asan preset: frames left on the stack keep their poisoned redzones in ASan's
  // shadow, and the next mapping at these addresses (device memory) would inherit them.
  ASAN_UNPOISON_MEMORY_REGION(static_cast<char*>(context.sp) - context.size, context.size);
#endif
  inner_.deallocate(context);
}

}  // namespace parlab_sim::detail
