// Lab 02, Part 2: predict_serial on the GPU (read api.hpp and README.md first). This
// file compiles and runs as given, but its kernel writes nothing, so out keeps the NaN
// the driver filled it with and every test fails until you fill in the TODOs.
//
// Build and test: grade lab02 path/to/this/dir
//   (no NVIDIA GPU? the grader runs your kernels in its simulator: correctness only)
#include <cstdint>
#include <cstdio>

#include "api.hpp"

namespace {

constexpr int kBlock = 256;  // threads per block

// y_hat of query i into out[i], one thread per query.
__global__ void predict_kernel(const float* __restrict__ train_x, const float* __restrict__ train_y,
                               std::int64_t n, const float* __restrict__ query_x, std::int64_t m,
                               int d, float h, float* __restrict__ out) {
  // TODO(lab02) step 1: one thread per query.
  //  - i = blockIdx.x * (std::int64_t)blockDim.x + threadIdx.x; threads with i >= m
  //    write nothing (the last block has threads past the end).
  //  - Loop over all n train points as in predict_serial, in float: the squared
  //    distance to point j, then its weight exp(-(d_j - d_min) / (2 h^2)).
  //  - One pass, with an ONLINE log-sum-exp: keep the running minimum d_min and the
  //    sums S_w and S_wy; when a nearer point turns up, multiply both sums by
  //    exp(-(d_min_old - d_min_new) / (2 h^2)) before adding it. Start d_min at a huge
  //    value and the sums at 0. At the end out[i] = S_wy / S_w.
  //  - expf is accurate. __expf is faster, but its error grows with |x|: compare
  //    with the tolerances in README.md before you switch.
  //
  // TODO(lab02) step 2: shared-memory tiles of train points.
  //  - Every thread reads every train point: stage a tile of them (x and y) in
  //    __shared__ arrays, each thread loading a few consecutive floats (coalesced),
  //    __syncthreads(), let every thread use the whole tile, __syncthreads() again
  //    before the next tile overwrites it.
  //  - d is only known at run time: size the tile for the largest d you support, or
  //    use `extern __shared__ float tile[];` with the size as the launch's 3rd argument.
  //  - The last tile is partial: load and use only the points that exist.
  //  - Do NOT return early from threads with i >= m: every thread of the block must
  //    reach every __syncthreads() (and help load the tiles). Only skip the final write.
  (void)train_x, (void)train_y, (void)n, (void)query_x, (void)m, (void)d, (void)h,
      (void)out;  // TODO(lab02): remove
}

}  // namespace

namespace lab02 {

void predict_gpu(const Problem& p, float h, float* out, std::size_t budget_bytes) {
  // TODO(lab02): a 1D grid that covers all m queries: (m + kBlock - 1) / kBlock blocks
  //   of kBlock threads (m can be 2^24: compute it in std::int64_t).
  // TODO(lab02) step 3: the memory budget. The kernel above never stores a weight:
  //   it needs no scratch memory, so budget_bytes is trivially respected. If you do
  //   cudaMalloc scratch space (e.g. a matrix of distances), it must fit in
  //   budget_bytes: process the queries in chunks small enough, and cudaFree it
  //   before returning. A cudaMalloc beyond the budget fails.
  // Check the launch: cudaGetLastError() returns a bad configuration (e.g. too many
  //   threads per block, too much shared memory).
  (void)budget_bytes;
  const dim3 block(kBlock);
  const dim3 grid(1);  // TODO(lab02): enough blocks for all m queries
  std::fprintf(stderr, "predict_gpu: not implemented yet (TODO(lab02) in regression_gpu.cu)\n");
  predict_kernel<<<grid, block>>>(p.train_x, p.train_y, p.n, p.query_x, p.m, p.d, h, out);
}

}  // namespace lab02
