#pragma once
// Lab 04: atomics and reductions. The fixed signatures your .cu files implement; the
// grader's driver.cpp calls them. Do not change this file: the grader compiles your
// files against its own copy.
//
// Rules every function below follows (README.md explains why):
//   - Every pointer is a DEVICE pointer (cudaMalloc'd by the driver). The inputs are
//     already on the GPU; the driver copies them there and the results back, and times
//     those transfers apart from your functions.
//   - n >= 1 (up to 2^28). The inputs never change; do not write to them.
//   - The outputs arrive POISONED: every byte 0xFF, so an int reads as -1 and a float
//     as NaN. Atomics add to (or take the max with) what is already there, so your
//     function must first set its output to the identity of the reduction: INT_MIN for
//     a max, 0 for a sum and for every histogram bin (cudaMemset, or a small kernel,
//     launched before the kernel that does the atomics; launches on the same stream run
//     in order).
//   - Launch your kernels and return; you need not synchronize (the driver does, and
//     reports any launch or kernel error naming your function). You may allocate
//     scratch memory (cudaMalloc/cudaFree), but it counts in your time.
//   - The result must not depend on luck: no data races, and correct for every n and
//     every block size (the last block is usually only partly full).
#include <cstdint>

namespace lab04 {

// (a) The largest of values[0..n-1] into *result, with ONE atomicMax ON GLOBAL MEMORY
// PER ELEMENT: every thread reads its element and calls atomicMax(result, value).
// Simple, and slow: every one of the n atomics goes to the same address.
void max_atomic(const int* values, int n, int* result);

// (b) The same maximum with a SHARED-MEMORY TREE REDUCTION PER BLOCK and ONE
// atomicMax per block: each block reduces its elements in shared memory
// (__syncthreads() between the steps), then thread 0 does one atomicMax(result, ...).
void max_block(const int* values, int n, int* result);

// The sum of values[0..n-1] into *result, as a shared-memory tree reduction per block
// and one atomicAdd(float) per block. The grader compares with the exact (double) sum
// within a relative tolerance (README.md, "Floating-point sums"): a tree is accurate
// enough, adding the elements one after the other in float is not.
void sum(const float* values, int n, float* result);

// A histogram: bins[b] = how many i have keys[i] == b, for b in [0, num_bins).
// Every key is in [0, num_bins); 1 <= num_bins <= 8192. Use SHARED-MEMORY
// PRIVATIZATION: each block counts into its own copy of the histogram in shared memory
// (atomicAdd on shared memory), then adds its copy to bins (one global atomicAdd per
// bin and block, skipping zeros if you like).
void histogram(const int* keys, int n, int* bins, int num_bins);

}  // namespace lab04
