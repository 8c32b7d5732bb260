#pragma once
// A sim build made where the toolchain has no nvcc (the CPU image, a Gradescope
// container) cannot compare its view of a source with nvcc's (compile/compiled_views),
// so it grades only sources whose conditionals decide alike for the simulator and a GPU
// (compile/conditional_macros). A conditional decides apart when it reads:
//   - a name nvcc or the CUDA headers define (compile/nvcc_macro_names);
//   - a name the simulator's headers or its compile's flags define (PARLAB_SIM, the CUDA
//     names they mirror, the check build's __SANITIZE_THREAD__);
//   - the value of a reserved name (`__x`, `_X`) other than those a compiler on the same
//     machine defines alike for both or neither defines (kSharedReserved in the .cpp:
//     __CUDACC__, __GNUC__, __x86_64__, _WIN32, ...), or __has_include and its kin;
//   - a token paste, which could spell any of them.
// Where every source is a .cu file, #ifdef and `defined` decide alike on a name both
// define in the same files (__CUDA_RUNTIME_H__, CUDART_VERSION) and on one neither may
// define (cuFFT's _CUFFT_H_), as public code's guards (helper_cuda.h) read them.
// Such a source's tests are "not graded here: needs a GPU", no points lost, as when the
// views differ.
#include <filesystem>
#include <optional>
#include <string>

#include "compile/conditional_macros.hpp"
#include "compile/toolchain.hpp"

namespace parlab::grader {

// The first conditional of the student's files under `stage` that decides apart, or none;
// `every_source_cu` when the lab's sources are all .cu files.
std::optional<ConditionalRead> conditional_only_a_gpu_decides(const Toolchain& toolchain,
                                                              const std::filesystem::path& stage,
                                                              bool every_source_cu);

// What the simulator's compile defines: its headers' and its flags' macro names (sorted),
// and whether every source it compiles is a .cu file.
struct SimulatorMacros {
  std::vector<std::string> names;
  bool every_source_cu = false;
};

// Whether a conditional's read of `name` (`expanded`: as conditional_macros says) may be
// decided apart (for the unit test).
bool decided_apart(std::string_view name, bool expanded, const SimulatorMacros& sim);

// The few words "not graded here: needs a GPU (...)" carries, and what the build log says.
std::string conditional_read_feature(const ConditionalRead& read, const std::string& display_file);
std::string conditional_read_message(const ConditionalRead& read, const std::string& display_file);

}  // namespace parlab::grader
