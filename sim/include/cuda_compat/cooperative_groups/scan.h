#pragma once
// cooperative_groups::inclusive_scan / exclusive_scan over a warp tile (Hillis-Steele
// with shfl_up), with CUDA's function objects (plus by default).
#include "cooperative_groups/reduce.h"

namespace cooperative_groups {

// Lane r gets op(v_0, ..., v_r).
template <unsigned Size, class Parent, class T, class Op = plus<T>>
T inclusive_scan(const thread_block_tile<Size, Parent>& tile, T value, Op op = Op()) {
  for (unsigned delta = 1; delta < Size; delta *= 2) {
    const T other = tile.shfl_up(value, delta);
    if (tile.thread_rank() >= delta) value = op(other, value);
  }
  return value;
}

// Lane r gets op(v_0, ..., v_{r-1}); lane 0 a value-initialized T (0 for plus).
template <unsigned Size, class Parent, class T, class Op = plus<T>>
T exclusive_scan(const thread_block_tile<Size, Parent>& tile, T value, Op op = Op()) {
  const T inclusive = inclusive_scan(tile, value, op);
  const T before = tile.shfl_up(inclusive, 1);
  return tile.thread_rank() == 0 ? T() : before;
}

}  // namespace cooperative_groups
