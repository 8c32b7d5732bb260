#pragma once
// A block's largest value of `partial` (kTileX * kTileY floats) ends in partial[0]:
// a shared-memory tree reduction. Every thread of the block must call it.
__device__ void block_max_reduce(float* partial, int t) {
  __syncthreads();
  for (int s = kTileX * kTileY / 2; s > 0; s /= 2) {
    if (t < s) partial[t] = fmaxf(partial[t], partial[t + s]);
    __syncthreads();
  }
}
