#pragma once
// parlab sim mode: atomicAdd and the other atomics (sim/include/parlab_sim/runtime.hpp).
#include "parlab_sim/runtime.hpp"
