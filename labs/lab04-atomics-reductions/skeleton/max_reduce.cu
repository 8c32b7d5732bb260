// Lab 04, part 1: the maximum of an int array, two ways (read api.hpp and README.md).
// This file compiles and runs as given, but writes nothing: every test fails with
// "left *result at -1, the poison value" until you fill in the TODOs.
//
// Build and test: grade lab04 path/to/your/dir   (--device sim without a GPU)
#include <climits>

#include "api.hpp"

namespace {

constexpr int kBlock = 256;  // threads per block; a power of two for the tree below

// TODO(lab04): a kernel that sets *p = value, for the identity of the max (INT_MIN).
// One thread is enough: launch it <<<1, 1>>> before the kernel that does the atomics.

// (a) One thread per element, one atomicMax on global memory per element.
__global__ void max_atomic_kernel(const int* values, int n, int* result) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  // TODO(lab04): if i is inside the array (the last block is only partly full),
  //              atomicMax(result, values[i]).
  (void)i, (void)values, (void)n, (void)result;  // remove once you use them
}

// (b) One thread per element; each block reduces its kBlock elements in shared memory
// and makes ONE atomicMax.
__global__ void max_block_kernel(const int* values, int n, int* result) {
  // TODO(lab04):
  //  0. Declare the block's shared array: __shared__ int partial[kBlock];
  //  1. partial[threadIdx.x] = this thread's element, or INT_MIN past the end of the
  //     array (so the tree below needs no bounds test).
  //  2. __syncthreads(): every element is in shared memory before anyone reads.
  //  3. for (stride = kBlock / 2; stride > 0; stride /= 2): the threads below stride
  //     take partial[t] = max(partial[t], partial[t + stride]); then __syncthreads().
  //     Every thread must reach every __syncthreads(): keep it outside the if.
  //  4. thread 0: atomicMax(result, partial[0]).
  (void)values, (void)n, (void)result;  // remove once you use them
}

}  // namespace

namespace lab04 {

void max_atomic(const int* values, int n, int* result) {
  // TODO(lab04): *result arrives as -1 (poisoned): set it to INT_MIN first.
  max_atomic_kernel<<<(n + kBlock - 1) / kBlock, kBlock>>>(values, n, result);
}

void max_block(const int* values, int n, int* result) {
  // TODO(lab04): set *result to INT_MIN first, as in max_atomic.
  max_block_kernel<<<(n + kBlock - 1) / kBlock, kBlock>>>(values, n, result);
}

}  // namespace lab04
