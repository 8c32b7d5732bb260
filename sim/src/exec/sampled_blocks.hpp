#pragma once
// Which blocks of a launch the branch-divergence counter samples (the memory-access
// counters count every block). Drawn as points of the launch's whole thread grid, not as
// block numbers: the reference and a submission with another block shape (16 x 16 where
// the reference has 32 x 8) then sample the same region of the data (both at the
// boundary, or both inside), so their divergence figures are compared like for like
// (grader/src/grading/sim_counters.cpp).
#include <cstdint>

#include "parlab_sim/vector_types.hpp"

namespace parlab_sim::detail {

// The linear index (x fastest) of the block holding the thread at a point of the whole
// thread grid drawn from `seed`.
std::uint64_t block_at_drawn_point(std::uint64_t seed, dim3 grid, dim3 block);

// Two distinct sampled blocks drawn so ({block, ~0} for a one-block launch); a draw that
// keeps landing in the first block falls back to `fallback_second`.
void draw_sampled_blocks(std::uint64_t seed, dim3 grid, dim3 block, std::uint64_t fallback_second,
                         std::uint64_t (&sampled)[2]);

}  // namespace parlab_sim::detail
