#include "exec/sampled_blocks.hpp"

#include <algorithm>

#include "exec/shuffled_order.hpp"

namespace parlab_sim::detail {

std::uint64_t block_at_drawn_point(std::uint64_t seed, dim3 grid, dim3 block) {
  const unsigned grids[3] = {grid.x, grid.y, grid.z};
  const unsigned blocks[3] = {block.x, block.y, block.z};
  std::uint64_t at[3] = {0, 0, 0};
  for (int d = 0; d < 3; ++d) {
    const std::uint64_t extent = static_cast<std::uint64_t>(grids[d]) * blocks[d];
    if (extent == 0) continue;
    // The same fraction of the extent whatever the block shape (a modulo would put the
    // point elsewhere when the padded extents differ).
    const std::uint64_t bits = mix_seed(seed + 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(d + 1)) >> 11;
    const double fraction = static_cast<double>(bits) * 0x1.0p-53;  // [0, 1)
    const auto point = std::min(extent - 1, static_cast<std::uint64_t>(fraction * static_cast<double>(extent)));
    at[d] = point / blocks[d];
  }
  return at[0] + static_cast<std::uint64_t>(grid.x) * (at[1] + static_cast<std::uint64_t>(grid.y) * at[2]);
}

void draw_sampled_blocks(std::uint64_t seed, dim3 grid, dim3 block, std::uint64_t fallback_second,
                         std::uint64_t (&sampled)[2]) {
  const std::uint64_t count = static_cast<std::uint64_t>(grid.x) * grid.y * grid.z;
  sampled[0] = block_at_drawn_point(seed, grid, block);
  sampled[1] = ~std::uint64_t{0};
  if (count <= 1) return;
  for (std::uint64_t draw = 1; draw <= 8; ++draw) {
    const std::uint64_t b = block_at_drawn_point(mix_seed(seed ^ draw), grid, block);
    if (b != sampled[0]) {
      sampled[1] = b;
      return;
    }
  }
  sampled[1] = fallback_second != sampled[0] ? fallback_second : (sampled[0] + 1) % count;
}

}  // namespace parlab_sim::detail
