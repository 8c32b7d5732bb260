#pragma once
// The macros nvcc defines for a .cu file, for the host or a GPU, with the CUDA headers the
// simulator also provides, that g++ with the C and C++ standard headers does not define
// (or defines otherwise): grader/data/nvcc_macro_names.txt, made from CUDA 13.0 by
// grader/data/make_nvcc_macro_names.sh and compiled in. A sim build made without nvcc
// leaves to a GPU a source whose conditionals read one (compile/conditional_macros);
// conditional_macros_test checks the list against the build's nvcc where there is one.
#include <string_view>

namespace parlab::grader {

bool nvcc_may_define(std::string_view name);

}  // namespace parlab::grader
