#pragma once
// Exit statuses of a sim-mode program that the simulator stopped. A GPU would report
// these faults as a sticky cudaError (or hang); the simulator prints what went wrong,
// where (kernel, block, thread) to stderr and exits with one of these codes, so the
// grader can tell them from an ordinary crash. Documented in docs/simulation.md.

namespace parlab_sim {

// The simulator itself ran out of memory (fiber stacks for the CUDA threads of a
// block); the same status as the harness's out-of-memory exit.
inline constexpr int kExitOutOfMemory = 86;

// Invalid memory access in a kernel: out of bounds of a cudaMalloc allocation or of
// dynamic shared memory, use after cudaFree, null or host pointer, stack overflow.
inline constexpr int kExitMemoryFault = 87;
// A block can never finish: a __syncthreads() that not every thread reaches, or a warp
// collective (__shfl_sync, __syncwarp, votes) whose lanes never all arrive.
inline constexpr int kExitDeadlock = 88;
// Any other fault in a kernel: assert() failed, __trap(), integer division by zero,
// an uncaught C++ exception, a device-only call made outside a kernel.
inline constexpr int kExitKernelFault = 89;
// Host code read or wrote device memory through a cudaMalloc pointer (on a GPU, a
// segmentation fault): device memory is inaccessible to host code outside kernels and
// the runtime's copies.
inline constexpr int kExitHostDeviceAccess = 90;
// A graded run whose runtime could not lock itself before the program ran, or whose
// settings descriptor was unreadable: it fails closed, its checks unrun (docs/sandbox.md).
inline constexpr int kExitNotLocked = 91;
// Correct code that uses a feature the simulator does not run (inline PTX, a launch from
// device code, a cuda::barrier of another scope): not a fault. The runtime also writes
// a sealed "unsupported_feature" finding naming the feature and its line, and the
// grader makes the tests whose runs stop here "not graded here: needs a GPU".
inline constexpr int kExitUnsupportedFeature = 92;
// Undefined behaviour the simulator stops at rather than guessing what a GPU would do:
// threads of one block waiting at different __syncthreads() (barriers at different
// sites), or the lanes of a warp collective disagreeing on its operation or mask, or a
// mask that leaves out the calling lane. A GPU may hang, let them pass or corrupt data.
inline constexpr int kExitUndefinedBehaviour = 93;

}  // namespace parlab_sim
