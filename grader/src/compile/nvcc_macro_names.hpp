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

// defined_in_one.txt: in a .cu file that includes nothing, or one that includes any one
// header the simulator implements, one of nvcc's passes or the simulator defines it and
// the other does not (__CUDA_ARCH__, PARLAB_SIM, __SANITIZE_THREAD__, the guard of a
// standard header the simulator's prelude includes): even #ifdef decides apart on it.
bool defined_in_one_only(std::string_view name);

}  // namespace parlab::grader
