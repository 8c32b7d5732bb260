#pragma once
// parlab sim mode: __syncthreads, intrinsics and the rest of the device API.
#include "parlab_sim/runtime.hpp"
