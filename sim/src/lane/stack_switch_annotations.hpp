#pragma once
// AddressSanitizer's fiber API, for the asan preset (PARLAB_SANITIZE; no-ops in any
// other build). ASan keeps one stack per OS thread; the fibers that run CUDA threads
// have their own. Told before every switch which stack runs next (and told on arrival
// that the switch is done), ASan can clear the frames an exception unwinds on a fiber
// (an aborted launch, a fiber's destruction) instead of ignoring the request ("ASan is
// ignoring requested __asan_handle_no_return"), whose stale poison otherwise shows up
// later as false stack-buffer-underflow reports. Every before_stack_switch() is paired
// with the after_stack_switch() the code switched to runs first.
#include <cstddef>
#include <cstdint>

#include "lane/fiber_stack.hpp"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

namespace parlab_sim::detail {

struct StackBounds {
  const void* bottom = nullptr;
  std::size_t size = 0;
};

inline StackBounds bounds_of(const StackRange& range) {
  return {reinterpret_cast<const void*>(range.guard_begin), range.top - range.guard_begin};
}

// `fake_stack_save`: where the stack being left keeps ASan's fake frames (nullptr when
// it is left for good). `next`: the stack that runs after the switch.
inline void before_stack_switch([[maybe_unused]] void** fake_stack_save,
                                [[maybe_unused]] StackBounds next) {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_start_switch_fiber(fake_stack_save, next.bottom, next.size);
#endif
}

// First thing after arriving on a stack: `fake_stack_save` as saved when it was left
// (nullptr on a new fiber); `previous`, if not null, receives the stack switched from.
inline void after_stack_switch([[maybe_unused]] void* fake_stack_save,
                               [[maybe_unused]] StackBounds* previous) {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_finish_switch_fiber(fake_stack_save, previous ? &previous->bottom : nullptr,
                                  previous ? &previous->size : nullptr);
#endif
}

}  // namespace parlab_sim::detail
