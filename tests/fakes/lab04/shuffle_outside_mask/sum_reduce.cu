// Fake lab04 sum_reduce.cu (the tests copy the reference's other files beside it): a
// warp-shuffle sum whose mask names only the lanes with data, while the shuffles still
// read lanes past the end of the array in the last, partial warp (the bug of a
// well-known public reduction sample). What a lane reads there is undefined on a GPU;
// the simulator says so with the shuffle's line, and the sum comes out wrong.
#include "api.hpp"

namespace {

constexpr int kBlock = 256;

__global__ void sum_warp_kernel(const float* values, int n, float* result) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned mask = __ballot_sync(0xffffffffu, i < n);  // the lanes with data
  if (i >= n) return;
  float v = values[i];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(mask, v, offset);
  if ((threadIdx.x & 31) == 0) atomicAdd(result, v);
}

__global__ void set_zero(float* result) { *result = 0.0f; }

}  // namespace

namespace lab04 {

void sum(const float* values, int n, float* result) {
  set_zero<<<1, 1>>>(result);
  sum_warp_kernel<<<(n + kBlock - 1) / kBlock, kBlock>>>(values, n, result);
}

}  // namespace lab04
