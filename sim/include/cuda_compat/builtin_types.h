#pragma once
// parlab sim mode: the runtime's types and vector types (sim/include/parlab_sim/runtime.hpp).
#include "parlab_sim/runtime.hpp"
