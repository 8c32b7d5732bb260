#pragma once
// parlab sim mode: the driver API is not simulated; this header exists so code that
// includes <cuda.h> only for CUDA_VERSION or the runtime declarations still compiles.
#include "parlab_sim/runtime.hpp"

#define CUDA_VERSION 12000
