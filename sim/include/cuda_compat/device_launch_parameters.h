#pragma once
// parlab sim mode: threadIdx, blockIdx, blockDim, gridDim, warpSize.
#include "parlab_sim/builtins.hpp"
