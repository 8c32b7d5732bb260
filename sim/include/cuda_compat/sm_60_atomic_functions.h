#pragma once
// parlab sim mode: atomicAdd on double and the _block/_system atomics (sim/include/parlab_sim/runtime.hpp).
#include "parlab_sim/runtime.hpp"
