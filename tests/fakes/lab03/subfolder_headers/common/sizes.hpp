#pragma once
// Launch shapes of the fake's kernels (a plain C++ header in a sub-folder).
namespace lab03 {
constexpr int kBlock = 256;             // 1D kernels: 8 warps per block
constexpr int kTileX = 32, kTileY = 8;  // 2D kernels: a warp covers 32 consecutive columns
}  // namespace lab03
