// The entry points g++'s -fsanitize=thread instrumentation calls (the same names and
// signatures as libtsan's, which is not linked). Plain accesses go to the race check;
// atomic ones are performed here (sequentially consistent) and recorded as atomic; with
// the race check on, a kernel's atomic is performed under its address's lock so that it
// orders memory between blocks as a fence and an atomic do (race/atomic_order.hpp).
// Without PARLAB_SIM_RACE_CHECK=1 every hook is a load and a branch.
// Also the hook of g++'s -fsanitize-coverage=trace-pc, called at the start of every
// basic block: the branch-divergence counter (counters/divergence.hpp); outside the
// sampled warps it is a thread-local load and a branch.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "startup/start_up.hpp"
#include "counters/divergence.hpp"
#include "race/atomic_order.hpp"
#include "exec/race_check.hpp"
#include "fault/code_offset.hpp"

using parlab_sim::detail::g_locked;
using parlab_sim::detail::race_check_access;

#define PARLAB_PC __builtin_return_address(0)

namespace {

inline void plain(const volatile void* address, std::size_t bytes, bool write, const void* pc) {
  if (__builtin_expect(g_locked.access_hooks_enabled, 0)) race_check_access(address, bytes, write, false, pc);
}
// The checked copy's caller on this thread while the C library's copy runs.
class CheckedCopyCaller {
 public:
  explicit CheckedCopyCaller(const void* caller) {
    parlab_sim::detail::t_checked_copy_caller = reinterpret_cast<std::uintptr_t>(caller);
  }
  ~CheckedCopyCaller() { parlab_sim::detail::t_checked_copy_caller = 0; }
  CheckedCopyCaller(const CheckedCopyCaller&) = delete;
  CheckedCopyCaller& operator=(const CheckedCopyCaller&) = delete;
};

template <class Operation>
inline auto atomic(const volatile void* address, std::size_t bytes, bool write, const void* pc,
                   Operation operation) {
  if (__builtin_expect(g_locked.access_hooks_enabled, 0)) {
    race_check_access(address, bytes, write, true, pc);
    std::uint64_t block = 0;
    if (parlab_sim::detail::BlockOrder* order = parlab_sim::detail::ordering_block(block)) {
      const auto where = reinterpret_cast<std::uintptr_t>(const_cast<const void*>(address));
      return parlab_sim::detail::atomic_order().perform(where, block, *order, operation);
    }
  }
  return operation();
}

}  // namespace

extern "C" {

void __sanitizer_cov_trace_pc() {
  if (parlab_sim::detail::BlockDivergence* block = parlab_sim::detail::t_divergence)
      [[unlikely]] {
    parlab_sim::detail::divergence_record(*block, PARLAB_PC);
  }
}

// Every instrumented object's module constructor (priority 99, before any constructor a
// program may declare) calls it: the earliest point to read the settings.
void __tsan_init() { parlab_sim::detail::load_runtime_settings_once(); }
void __tsan_func_entry(void*) {}
void __tsan_func_exit() {}
void __tsan_ignore_thread_begin() {}
void __tsan_ignore_thread_end() {}
void __tsan_vptr_update(void**, void*) {}
void __tsan_vptr_read(void**) {}

#define PARLAB_TSAN_ACCESS(n)                                                                  \
  void __tsan_read##n(void* a) { plain(a, n, false, PARLAB_PC); }                             \
  void __tsan_write##n(void* a) { plain(a, n, true, PARLAB_PC); }                             \
  void __tsan_unaligned_read##n(void* a) { plain(a, n, false, PARLAB_PC); }                   \
  void __tsan_unaligned_write##n(void* a) { plain(a, n, true, PARLAB_PC); }                   \
  void __tsan_volatile_read##n(void* a) { plain(a, n, false, PARLAB_PC); }                    \
  void __tsan_volatile_write##n(void* a) { plain(a, n, true, PARLAB_PC); }                    \
  void __tsan_read##n##_pc(void* a, void* pc) { plain(a, n, false, pc); }                     \
  void __tsan_write##n##_pc(void* a, void* pc) { plain(a, n, true, pc); }
PARLAB_TSAN_ACCESS(1)
PARLAB_TSAN_ACCESS(2)
PARLAB_TSAN_ACCESS(4)
PARLAB_TSAN_ACCESS(8)
PARLAB_TSAN_ACCESS(16)
#undef PARLAB_TSAN_ACCESS

// The C library's copies as a sim build calls them (parlab_sim/checked_library_calls.hpp):
// the ranges reported as the instrumentation reports a struct copy's, then copied, the
// caller kept for a fault inside the copy (host code copying a device pointer names the
// program's line: fault/code_offset).
void* parlab_sim_checked_memcpy(void* to, const void* from, std::size_t bytes) noexcept {
  const void* caller = PARLAB_PC;
  if (bytes != 0) {  // a copy of nothing touches nothing, wherever its pointers point
    plain(from, bytes, false, caller);
    plain(to, bytes, true, caller);
  }
  const CheckedCopyCaller kept(caller);
  return std::memcpy(to, from, bytes);
}
void* parlab_sim_checked_memmove(void* to, const void* from, std::size_t bytes) noexcept {
  const void* caller = PARLAB_PC;
  if (bytes != 0) {
    plain(from, bytes, false, caller);
    plain(to, bytes, true, caller);
  }
  const CheckedCopyCaller kept(caller);
  return std::memmove(to, from, bytes);
}
void* parlab_sim_checked_memset(void* to, int value, std::size_t bytes) noexcept {
  const void* caller = PARLAB_PC;
  if (bytes != 0) plain(to, bytes, true, caller);
  const CheckedCopyCaller kept(caller);
  return std::memset(to, value, bytes);
}

void __tsan_read_range(void* a, unsigned long size) { plain(a, size, false, PARLAB_PC); }
void __tsan_write_range(void* a, unsigned long size) { plain(a, size, true, PARLAB_PC); }

void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

// The atomic `expression` on `a`, through atomic() above.
#define PARLAB_ATOMIC(write, expression) \
  atomic(a, sizeof(*a), write, PARLAB_PC, [&] { return expression; })
#define PARLAB_SEQ __ATOMIC_SEQ_CST
#define PARLAB_TSAN_ATOMICS(bits, type)                                                        \
  type __tsan_atomic##bits##_load(const volatile type* a, int) {                              \
    return PARLAB_ATOMIC(false, __atomic_load_n(a, PARLAB_SEQ));                               \
  }                                                                                            \
  void __tsan_atomic##bits##_store(volatile type* a, type v, int) {                            \
    PARLAB_ATOMIC(true, (__atomic_store_n(a, v, PARLAB_SEQ), 0));                              \
  }                                                                                            \
  type __tsan_atomic##bits##_exchange(volatile type* a, type v, int) {                         \
    return PARLAB_ATOMIC(true, __atomic_exchange_n(a, v, PARLAB_SEQ));                         \
  }                                                                                            \
  type __tsan_atomic##bits##_fetch_add(volatile type* a, type v, int) {                        \
    return PARLAB_ATOMIC(true, __atomic_fetch_add(a, v, PARLAB_SEQ));                          \
  }                                                                                            \
  type __tsan_atomic##bits##_fetch_sub(volatile type* a, type v, int) {                        \
    return PARLAB_ATOMIC(true, __atomic_fetch_sub(a, v, PARLAB_SEQ));                          \
  }                                                                                            \
  type __tsan_atomic##bits##_fetch_and(volatile type* a, type v, int) {                        \
    return PARLAB_ATOMIC(true, __atomic_fetch_and(a, v, PARLAB_SEQ));                          \
  }                                                                                            \
  type __tsan_atomic##bits##_fetch_or(volatile type* a, type v, int) {                         \
    return PARLAB_ATOMIC(true, __atomic_fetch_or(a, v, PARLAB_SEQ));                           \
  }                                                                                            \
  type __tsan_atomic##bits##_fetch_xor(volatile type* a, type v, int) {                        \
    return PARLAB_ATOMIC(true, __atomic_fetch_xor(a, v, PARLAB_SEQ));                          \
  }                                                                                            \
  type __tsan_atomic##bits##_fetch_nand(volatile type* a, type v, int) {                       \
    return PARLAB_ATOMIC(true, __atomic_fetch_nand(a, v, PARLAB_SEQ));                         \
  }                                                                                            \
  int __tsan_atomic##bits##_compare_exchange_strong(volatile type* a, type* c, type v, int,   \
                                                    int) {                                     \
    return PARLAB_ATOMIC(true, __atomic_compare_exchange_n(a, c, v, false, PARLAB_SEQ, PARLAB_SEQ)); \
  }                                                                                            \
  int __tsan_atomic##bits##_compare_exchange_weak(volatile type* a, type* c, type v, int,     \
                                                  int) {                                       \
    return PARLAB_ATOMIC(true, __atomic_compare_exchange_n(a, c, v, false, PARLAB_SEQ, PARLAB_SEQ)); \
  }                                                                                            \
  type __tsan_atomic##bits##_compare_exchange_val(volatile type* a, type c, type v, int, int) { \
    PARLAB_ATOMIC(true, __atomic_compare_exchange_n(a, &c, v, false, PARLAB_SEQ, PARLAB_SEQ));  \
    return c;                                                                                  \
  }
PARLAB_TSAN_ATOMICS(8, char)
PARLAB_TSAN_ATOMICS(16, short)
PARLAB_TSAN_ATOMICS(32, int)
PARLAB_TSAN_ATOMICS(64, long)
#undef PARLAB_TSAN_ATOMICS
#undef PARLAB_ATOMIC
#undef PARLAB_SEQ

}  // extern "C"
