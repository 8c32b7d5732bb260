#pragma once
// parlab sim mode: cudaError_t, cudaMemcpyKind and the other runtime types (sim/include/parlab_sim/runtime.hpp).
#include "parlab_sim/runtime.hpp"
