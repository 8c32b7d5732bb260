#pragma once
// The lists a sim build made without nvcc judges a conditional by (compile/
// sim_without_nvcc), made from CUDA 13.0 and this simulator by
// grader/data/make_nvcc_macro_names.sh and compiled in; conditional_macros_test checks
// them against the build's nvcc and simulator.
#include <string_view>

namespace parlab::grader {

// nvcc_macro_names.txt: nvcc defines it for a .cu file, for the host or a GPU, with the
// CUDA headers the simulator also provides, and g++ with the C and C++ standard headers
// does not (or defines it otherwise).
bool nvcc_may_define(std::string_view name);

// sim_flag_macros.txt: the simulator's compile flags make g++ define it
// (__SANITIZE_THREAD__, _REENTRANT).
bool sim_flags_define(std::string_view name);

// ifdef_alike.txt: nvcc (every pass) and the simulator define it in the same .cu files
// (one that includes nothing, one that includes any one header the simulator implements):
// #ifdef and `defined` decide alike on it (__CUDA_RUNTIME_H__, CUDART_VERSION).
bool ifdef_decides_alike(std::string_view name);

}  // namespace parlab::grader
