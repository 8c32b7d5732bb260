#pragma once
// Force-included before every file compiled in sim mode (g++ -include
// parlab_sim/prelude.hpp), as nvcc implicitly includes cuda_runtime.h before a .cu
// file. See docs/simulation-design.md, "Building a .cu file in sim mode", for the full
// command line.
// First: the C library's copies renamed before any header declares them.
#include "parlab_sim/checked_library_calls.hpp"
#include "parlab_sim/runtime.hpp"
