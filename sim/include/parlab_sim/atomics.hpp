#pragma once
// CUDA's atomic functions on the types CUDA supports, as relaxed std::atomic_ref
// operations (CUDA atomics are relaxed too). Blocks run on several OS threads, so
// these are real atomics. A failed atomicCAS lets the block's other threads run first,
// so a spin lock held by another thread of the same block can be released.
#include <atomic>

namespace parlab_sim::detail {

void yield_to_other_threads();

template <class T>
std::atomic_ref<T> atomic_at(T* address) {
  return std::atomic_ref<T>(*address);
}

template <class T, class Combine>
T atomic_update(T* address, Combine combine) {
  auto ref = atomic_at(address);
  T old = ref.load(std::memory_order_relaxed);
  while (!ref.compare_exchange_weak(old, combine(old), std::memory_order_relaxed)) {
  }
  return old;
}

template <class T>
T atomic_compare_and_swap(T* address, T compare, T value) {
  T expected = compare;
  atomic_at(address).compare_exchange_strong(expected, value, std::memory_order_relaxed);
  if (expected != compare) yield_to_other_threads();
  return expected;
}

}  // namespace parlab_sim::detail

#define PARLAB_SIM_ATOMIC_FETCH(name, T, fetch)                                 \
  inline T name(T* address, T value) {                                          \
    return parlab_sim::detail::atomic_at(address).fetch(value,                  \
                                                        std::memory_order_relaxed); \
  }
#define PARLAB_SIM_ATOMIC_UPDATE(name, T, expression)                    \
  inline T name(T* address, T value) {                                   \
    return parlab_sim::detail::atomic_update(address,                    \
                                             [value](T old) { return expression; }); \
  }

PARLAB_SIM_ATOMIC_FETCH(atomicAdd, int, fetch_add)
PARLAB_SIM_ATOMIC_FETCH(atomicAdd, unsigned int, fetch_add)
PARLAB_SIM_ATOMIC_FETCH(atomicAdd, unsigned long long int, fetch_add)
PARLAB_SIM_ATOMIC_FETCH(atomicAdd, float, fetch_add)
PARLAB_SIM_ATOMIC_FETCH(atomicAdd, double, fetch_add)
PARLAB_SIM_ATOMIC_FETCH(atomicSub, int, fetch_sub)
PARLAB_SIM_ATOMIC_FETCH(atomicSub, unsigned int, fetch_sub)
PARLAB_SIM_ATOMIC_FETCH(atomicExch, int, exchange)
PARLAB_SIM_ATOMIC_FETCH(atomicExch, unsigned int, exchange)
PARLAB_SIM_ATOMIC_FETCH(atomicExch, unsigned long long int, exchange)
PARLAB_SIM_ATOMIC_FETCH(atomicExch, float, exchange)
PARLAB_SIM_ATOMIC_FETCH(atomicAnd, int, fetch_and)
PARLAB_SIM_ATOMIC_FETCH(atomicAnd, unsigned int, fetch_and)
PARLAB_SIM_ATOMIC_FETCH(atomicAnd, unsigned long long int, fetch_and)
PARLAB_SIM_ATOMIC_FETCH(atomicOr, int, fetch_or)
PARLAB_SIM_ATOMIC_FETCH(atomicOr, unsigned int, fetch_or)
PARLAB_SIM_ATOMIC_FETCH(atomicOr, unsigned long long int, fetch_or)
PARLAB_SIM_ATOMIC_FETCH(atomicXor, int, fetch_xor)
PARLAB_SIM_ATOMIC_FETCH(atomicXor, unsigned int, fetch_xor)
PARLAB_SIM_ATOMIC_FETCH(atomicXor, unsigned long long int, fetch_xor)
PARLAB_SIM_ATOMIC_UPDATE(atomicMin, int, value < old ? value : old)
PARLAB_SIM_ATOMIC_UPDATE(atomicMin, unsigned int, value < old ? value : old)
PARLAB_SIM_ATOMIC_UPDATE(atomicMin, long long int, value < old ? value : old)
PARLAB_SIM_ATOMIC_UPDATE(atomicMin, unsigned long long int, value < old ? value : old)
PARLAB_SIM_ATOMIC_UPDATE(atomicMax, int, value > old ? value : old)
PARLAB_SIM_ATOMIC_UPDATE(atomicMax, unsigned int, value > old ? value : old)
PARLAB_SIM_ATOMIC_UPDATE(atomicMax, long long int, value > old ? value : old)
PARLAB_SIM_ATOMIC_UPDATE(atomicMax, unsigned long long int, value > old ? value : old)
// CUDA's wrapping counters: inc wraps to 0 past `value`, dec wraps to `value` below 0.
PARLAB_SIM_ATOMIC_UPDATE(atomicInc, unsigned int, old >= value ? 0u : old + 1u)
PARLAB_SIM_ATOMIC_UPDATE(atomicDec, unsigned int,
                         (old == 0u || old > value) ? value : old - 1u)

inline int atomicCAS(int* address, int compare, int value) {
  return parlab_sim::detail::atomic_compare_and_swap(address, compare, value);
}
inline unsigned int atomicCAS(unsigned int* address, unsigned int compare, unsigned int value) {
  return parlab_sim::detail::atomic_compare_and_swap(address, compare, value);
}
inline unsigned long long int atomicCAS(unsigned long long int* address,
                                        unsigned long long int compare,
                                        unsigned long long int value) {
  return parlab_sim::detail::atomic_compare_and_swap(address, compare, value);
}
inline unsigned short int atomicCAS(unsigned short int* address, unsigned short int compare,
                                    unsigned short int value) {
  return parlab_sim::detail::atomic_compare_and_swap(address, compare, value);
}

// The _block and _system scopes only narrow or widen visibility on a GPU; here every
// atomic is visible everywhere, so they are the same functions.
#define PARLAB_SIM_ATOMIC_SCOPES(name)                                            \
  template <class T, class... Rest>                                               \
  auto name##_block(T* address, Rest... rest) -> decltype(name(address, rest...)) {  \
    return name(address, rest...);                                                \
  }                                                                               \
  template <class T, class... Rest>                                               \
  auto name##_system(T* address, Rest... rest) -> decltype(name(address, rest...)) { \
    return name(address, rest...);                                                \
  }
PARLAB_SIM_ATOMIC_SCOPES(atomicAdd)
PARLAB_SIM_ATOMIC_SCOPES(atomicSub)
PARLAB_SIM_ATOMIC_SCOPES(atomicExch)
PARLAB_SIM_ATOMIC_SCOPES(atomicMin)
PARLAB_SIM_ATOMIC_SCOPES(atomicMax)
PARLAB_SIM_ATOMIC_SCOPES(atomicInc)
PARLAB_SIM_ATOMIC_SCOPES(atomicDec)
PARLAB_SIM_ATOMIC_SCOPES(atomicCAS)
PARLAB_SIM_ATOMIC_SCOPES(atomicAnd)
PARLAB_SIM_ATOMIC_SCOPES(atomicOr)
PARLAB_SIM_ATOMIC_SCOPES(atomicXor)

#undef PARLAB_SIM_ATOMIC_FETCH
#undef PARLAB_SIM_ATOMIC_UPDATE
#undef PARLAB_SIM_ATOMIC_SCOPES
