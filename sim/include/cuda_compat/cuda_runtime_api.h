#pragma once
// parlab sim mode: the simulated CUDA runtime (sim/include/parlab_sim/runtime.hpp).
#include "parlab_sim/runtime.hpp"
