#pragma once
// threadIdx, blockIdx, blockDim, gridDim, warpSize. The index variables belong to the
// worker OS thread; the block scheduler writes them each time it switches to another
// CUDA thread's fiber, so kernel code reads its own indices. Do not assign to them.
#include "parlab_sim/vector_types.hpp"

extern thread_local constinit uint3 threadIdx;
extern thread_local constinit uint3 blockIdx;
extern thread_local constinit dim3 blockDim;
extern thread_local constinit dim3 gridDim;

// A constant, not a macro, so `prop.warpSize` still names the cudaDeviceProp field.
inline constexpr int warpSize = 32;
