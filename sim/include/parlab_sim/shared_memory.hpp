#pragma once
// Dynamic shared memory (extern __shared__) and the accounting of static __shared__
// bytes that lets the simulator reject a block over the shared-memory limit with
// cudaErrorInvalidValue, as CUDA does. parlab-sim-rewrite turns
//     extern __shared__ float s[];          into   float* const s = <the block's buffer>;
//     __shared__ float a[16], b[16];        into   the same + PARLAB_SIM_STATIC_SHARED(...)
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>

namespace parlab_sim {
namespace detail {
// Set by the block scheduler for the block running on this OS thread.
extern thread_local constinit std::byte* t_dynamic_shared;
// The name of the running block's extern __shared__ array, for race reports.
extern thread_local constinit const char* t_dynamic_shared_name;
// Identifies the block run on this OS thread; 0 while no block runs.
extern thread_local constinit std::uint64_t t_block_serial;

void count_static_shared_of_new_block(std::size_t bytes, std::uint64_t& counted_in_block);

// Adds a __shared__ declaration's size to the running block's total, once per block.
inline void count_static_shared(std::size_t bytes, std::uint64_t& counted_in_block) {
  if (counted_in_block != t_block_serial) count_static_shared_of_new_block(bytes, counted_in_block);
}

// One static __shared__ variable as the rewriter names it.
struct SharedVariable {
  void* address;
  std::size_t bytes;
  const char* name;
};

template <class T>
SharedVariable shared_variable(T& variable, const char* name) {
  return {const_cast<void*>(static_cast<const volatile void*>(std::addressof(variable))),
          sizeof(T), name};
}

void enter_static_shared_of_new_block(std::initializer_list<SharedVariable> variables,
                                      std::uint64_t& counted_in_block);

// The first thread of a block to reach a static __shared__ declaration counts its
// bytes, poisons them (a NaN word, not the outputs' all-ones poison: lane/shared_poison.hpp;
// a GPU's shared memory starts with whatever the previous block left) and registers
// them for the race check.
// No thread of the block can have used them before: they are not in scope earlier.
inline void enter_static_shared(std::uint64_t& counted_in_block,
                                std::initializer_list<SharedVariable> variables) {
  if (counted_in_block != t_block_serial) enter_static_shared_of_new_block(variables, counted_in_block);
}
}  // namespace detail

// Start of the running block's dynamic shared memory: the size given at launch, 16-byte
// aligned, with its end against a guard page. Null outside a kernel.
inline void* dynamic_shared_memory() { return detail::t_dynamic_shared; }
// The rewriter's form: also remembers the array's name for reports.
inline void* dynamic_shared_memory(const char* name) {
  detail::t_dynamic_shared_name = name;
  return detail::t_dynamic_shared;
}

}  // namespace parlab_sim

#define PARLAB_SIM_CONCAT_IMPL(a, b) a##b
#define PARLAB_SIM_CONCAT(a, b) PARLAB_SIM_CONCAT_IMPL(a, b)
#define PARLAB_SIM_STATIC_SHARED_AS(bytes, counted)    \
  static thread_local ::std::uint64_t counted = 0;     \
  ::parlab_sim::detail::count_static_shared((bytes), counted)
// A statement placed after a static __shared__ declaration in a function body (older
// rewrites: counts the bytes only).
#define PARLAB_SIM_STATIC_SHARED(bytes) \
  PARLAB_SIM_STATIC_SHARED_AS(bytes, PARLAB_SIM_CONCAT(parlab_sim_shared_counted_, __COUNTER__))

// What parlab-sim-rewrite places after `__shared__ float a[16], b[16];`:
//   PARLAB_SIM_STATIC_SHARED_VARS(PARLAB_SIM_SHARED_VAR(a), PARLAB_SIM_SHARED_VAR(b));
#define PARLAB_SIM_SHARED_VAR(name) ::parlab_sim::detail::shared_variable(name, #name)
#define PARLAB_SIM_STATIC_SHARED_VARS_AS(counted, ...)  \
  static thread_local ::std::uint64_t counted = 0;    \
  ::parlab_sim::detail::enter_static_shared(counted, {__VA_ARGS__})
#define PARLAB_SIM_STATIC_SHARED_VARS(...)                                                   \
  PARLAB_SIM_STATIC_SHARED_VARS_AS(PARLAB_SIM_CONCAT(parlab_sim_shared_counted_, __COUNTER__), \
                                   __VA_ARGS__)
