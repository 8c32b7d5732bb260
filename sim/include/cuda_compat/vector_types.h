#pragma once
// parlab sim mode: float4, int2, dim3, ... (sim/include/parlab_sim/vector_types.hpp).
#include "parlab_sim/vector_types.hpp"
