#pragma once
// GPU builds refuse a submission that would replace a library function the grader's
// code calls: the CUDA runtime's event timer, or `dlsym`, through which the static CUDA
// runtime finds the driver's functions, are the published ways to fake a GPU time
// (docs/gpu.md, "Timing on the GPU"). A C-linkage definition in the student's objects
// wins over a shared library's for every caller in the program, the driver's and the
// harness's included. Refused: an unmangled global definition that a shared library of
// the linked program also defines, or that has the name of a CUDA, NVML or cuBLAS
// function. Student code rarely defines either; `extern "C"` kernels keep their own
// names and pass.
#include <cstddef>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "compile/elf_object.hpp"

namespace parlab::grader {

// Every name the program's directly needed shared libraries define, each found in
// `search_dirs` (the first match). A library not found, or larger than 64 MiB (cuBLAS),
// adds nothing: the CUDA-family names below still hold for it.
std::set<std::string> names_libraries_define(const ElfObject& program,
                                             const std::vector<std::filesystem::path>& search_dirs);

// Whether `name` is spelled as a CUDA runtime or driver, NVML or cuBLAS function.
bool is_cuda_library_name(const std::string& name);

// The object's definitions that would replace a library function (sorted, at most `limit`).
std::vector<std::string> library_interposing_definitions(const ElfObject& object,
                                                         const std::set<std::string>& library_names,
                                                         std::size_t limit = 8);

}  // namespace parlab::grader
