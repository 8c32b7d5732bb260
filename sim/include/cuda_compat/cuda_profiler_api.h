#pragma once
// parlab sim mode: the profiler range, cudaProfilerStart/Stop (sim/include/parlab_sim/runtime.hpp).
#include "parlab_sim/runtime.hpp"
