#pragma once
// memcpy, memmove and memset as a sim build calls them: the check build's instrumentation
// calls a hook before every load and store the compiler emits, but a call to the C
// library's memcpy (a copy of a size known only at run time, std::copy of ints) makes
// its loads and stores inside libc, where no hook is. A kernel's racy store written as a
// memcpy went unseen. Declared here, before any header declares them, with an assembler
// name: every call the compiler emits for them (std::memcpy, __builtin_memcpy, a
// std::copy that becomes memmove) goes to the runtime's checked copy
// (sim/src/exec/tsan_hooks.cpp), which reports the ranges read and written, with the
// caller's address, and then copies. Included first by parlab_sim/prelude.hpp; the
// runtime's own sources never include it, so its copies stay the C library's.
#include <stddef.h>

extern "C" {
void* memcpy(void* to, const void* from, size_t bytes) noexcept __asm__("parlab_sim_checked_memcpy");
void* memmove(void* to, const void* from, size_t bytes) noexcept __asm__("parlab_sim_checked_memmove");
void* memset(void* to, int value, size_t bytes) noexcept __asm__("parlab_sim_checked_memset");
// CUDA's in-kernel malloc and free, the same way: a kernel's thread gets memory of the
// simulated device heap, which the checks see as global memory, host code the C
// library's (sim/src/runtime/kernel_malloc.cpp, sim/src/memory/device_heap.hpp).
void* malloc(size_t bytes) noexcept __asm__("parlab_sim_malloc");
void free(void* block) noexcept __asm__("parlab_sim_free");
}
