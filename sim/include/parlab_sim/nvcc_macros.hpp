#pragma once
// Force-included after the prelude in every .cu file compiled in sim mode: the macros
// nvcc defines for every .cu file, so code that asks `#ifdef __CUDACC__` (a header
// shared with plain C++ files, say) compiles the lines a GPU build compiles. After the
// prelude, not on the command line: the prelude's precompiled form was made without
// them, and the C++ library headers it read stay as they were (with __CUDACC__ they
// leave out __float128, which no kernel can use anyway). __CUDA_ARCH__ stays undefined:
// the grader compares which lines each view compiles (grader/src/compile/compiled_views).
#define __CUDACC__ 1
#define __NVCC__ 1
