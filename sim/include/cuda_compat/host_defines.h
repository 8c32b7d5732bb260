#pragma once
// parlab sim mode: __host__, __device__ and the other qualifiers (sim/include/parlab_sim/runtime.hpp).
#include "parlab_sim/runtime.hpp"
