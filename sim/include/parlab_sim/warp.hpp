#pragma once
// Warp shuffles, votes, matches and reductions (the _sync forms). A warp is 32
// consecutive threads of a block in linear thread order. Every lane named in the mask
// must make the same call; lanes that exited count as absent, as in CUDA. Reading a
// value from an absent lane yields the caller's own value (CUDA: undefined) and is
// reported as a finding with the shuffle's source line.
#include <cstdint>
#include <cstring>
#include <source_location>
#include <type_traits>

#include "parlab_sim/builtins.hpp"

namespace parlab_sim::detail {

enum class WarpOp : std::uint8_t {
  sync,
  shfl,
  shfl_up,
  shfl_down,
  shfl_xor,
  ballot,
  any,
  all,
  match_any,
  match_all,
  reduce_add,
  reduce_min,
  reduce_max,
  reduce_and,
  reduce_or,
  reduce_xor,
  coalesce,  // cooperative_groups::coalesced_threads(): the lanes here together
};

struct WarpRequest {
  WarpOp op;
  unsigned int mask;
  std::uint64_t value;
  int arg;      // source lane, delta or lane mask of a shuffle
  int width;    // shuffle segment width
  bool is_signed;  // reductions: compare as signed
  std::source_location site{};  // shuffles: where the student called it (findings)
};

// Blocks the calling CUDA thread until every non-exited lane in request.mask has made
// the same call, then returns this lane's result.
std::uint64_t warp_collective(const WarpRequest& request);

template <class T>
std::uint64_t to_bits(T value) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8,
                "warp shuffles move values of at most 8 bytes");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}

template <class T>
T from_bits(std::uint64_t bits) {
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

template <class T>
T shuffle(WarpOp op, unsigned int mask, T var, int arg, int width, std::source_location site) {
  return from_bits<T>(warp_collective({op, mask, to_bits(var), arg, width, false, site}));
}

}  // namespace parlab_sim::detail

template <class T>
T __shfl_sync(unsigned int mask, T var, int src_lane, int width = warpSize,
              std::source_location site = std::source_location::current()) {
  return parlab_sim::detail::shuffle(parlab_sim::detail::WarpOp::shfl, mask, var, src_lane,
                                     width, site);
}
template <class T>
T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = warpSize,
                 std::source_location site = std::source_location::current()) {
  return parlab_sim::detail::shuffle(parlab_sim::detail::WarpOp::shfl_up, mask, var,
                                     static_cast<int>(delta), width, site);
}
template <class T>
T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = warpSize,
                 std::source_location site = std::source_location::current()) {
  return parlab_sim::detail::shuffle(parlab_sim::detail::WarpOp::shfl_down, mask, var,
                                     static_cast<int>(delta), width, site);
}
template <class T>
T __shfl_xor_sync(unsigned int mask, T var, int lane_mask, int width = warpSize,
                  std::source_location site = std::source_location::current()) {
  return parlab_sim::detail::shuffle(parlab_sim::detail::WarpOp::shfl_xor, mask, var,
                                     lane_mask, width, site);
}

unsigned int __ballot_sync(unsigned int mask, int predicate);
int __any_sync(unsigned int mask, int predicate);
int __all_sync(unsigned int mask, int predicate);

template <class T>
unsigned int __match_any_sync(unsigned int mask, T value) {
  using parlab_sim::detail::WarpOp;
  return static_cast<unsigned int>(parlab_sim::detail::warp_collective(
      {WarpOp::match_any, mask, parlab_sim::detail::to_bits(value), 0, 32, false}));
}
template <class T>
unsigned int __match_all_sync(unsigned int mask, T value, int* predicate) {
  using parlab_sim::detail::WarpOp;
  const std::uint64_t result = parlab_sim::detail::warp_collective(
      {WarpOp::match_all, mask, parlab_sim::detail::to_bits(value), 0, 32, false});
  *predicate = result != 0 ? 1 : 0;
  return static_cast<unsigned int>(result);
}

unsigned int __reduce_add_sync(unsigned int mask, unsigned int value);
int __reduce_add_sync(unsigned int mask, int value);
unsigned int __reduce_min_sync(unsigned int mask, unsigned int value);
int __reduce_min_sync(unsigned int mask, int value);
unsigned int __reduce_max_sync(unsigned int mask, unsigned int value);
int __reduce_max_sync(unsigned int mask, int value);
unsigned int __reduce_and_sync(unsigned int mask, unsigned int value);
unsigned int __reduce_or_sync(unsigned int mask, unsigned int value);
unsigned int __reduce_xor_sync(unsigned int mask, unsigned int value);
