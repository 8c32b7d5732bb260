#pragma once
// A sim build made where the toolchain has no nvcc (the CPU image, a Gradescope
// container) cannot compare its view of a source with nvcc's (compile/compiled_views),
// so it grades only sources whose conditionals decide alike for the simulator and a GPU
// (compile/conditional_macros). A conditional decides apart when it reads:
//   - a name nvcc or the CUDA headers define (compile/nvcc_macro_names);
//   - a name the simulator's headers or its compile's -D flags define (PARLAB_SIM, the
//     CUDA names they mirror);
//   - a reserved name (`__x`, `_X`) other than those a compiler on the same machine
//     defines alike for both or neither defines (kSharedReserved in the .cpp:
//     __CUDACC__, __GNUC__, __x86_64__, _WIN32, ...): the compilers' own macros differ
//     (nvcc's __CUDA_ARCH__, the check build's __SANITIZE_THREAD__, __has_include of a
//     header only one has);
//   - a token paste, which could spell any of them.
// Such a source's tests are "not graded here: needs a GPU", no points lost, as when the
// views differ.
#include <filesystem>
#include <optional>
#include <string>

#include "compile/conditional_macros.hpp"
#include "compile/toolchain.hpp"

namespace parlab::grader {

// The first conditional of the student's files under `stage` that decides apart, or none.
std::optional<ConditionalRead> conditional_only_a_gpu_decides(const Toolchain& toolchain,
                                                              const std::filesystem::path& stage);

// Whether `name` may be decided apart, given the names the simulator's headers and flags
// define (for the unit test).
bool decided_apart(std::string_view name, const std::vector<std::string>& sim_names);

// The few words "not graded here: needs a GPU (...)" carries, and what the build log says.
std::string conditional_read_feature(const ConditionalRead& read, const std::string& display_file);
std::string conditional_read_message(const ConditionalRead& read, const std::string& display_file);

}  // namespace parlab::grader
