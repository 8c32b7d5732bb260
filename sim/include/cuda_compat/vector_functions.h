#pragma once
// parlab sim mode: make_float4 and the other make_* functions (sim/include/parlab_sim/runtime.hpp).
#include "parlab_sim/runtime.hpp"
