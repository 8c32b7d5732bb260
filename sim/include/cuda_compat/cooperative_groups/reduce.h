#pragma once
// cooperative_groups::reduce over a tile (of a warp or of several), with CUDA's function
// objects.
#include "cooperative_groups.h"

namespace cooperative_groups {

template <class T> struct plus { T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { T operator()(T a, T b) const { return b < a ? b : a; } };
template <class T> struct greater { T operator()(T a, T b) const { return a < b ? b : a; } };
template <class T> struct bit_and { T operator()(T a, T b) const { return a & b; } };
template <class T> struct bit_or { T operator()(T a, T b) const { return a | b; } };
template <class T> struct bit_xor { T operator()(T a, T b) const { return a ^ b; } };

// Every lane of the tile gets the reduction of all its lanes' values (a butterfly).
template <unsigned Size, class Parent, class T, class Op>
T reduce(const thread_block_tile<Size, Parent>& tile, T value, Op op) {
  if constexpr (Size > 32) return tile.fold(value, op, std::source_location::current());
  for (unsigned offset = Size / 2; offset > 0; offset /= 2) value = op(value, tile.shfl_xor(value, offset));
  return value;
}

}  // namespace cooperative_groups
