#pragma once
// A sim build made where the toolchain has no nvcc (the CPU image, a Gradescope
// container) cannot compare its view of a source with nvcc's (compile/compiled_views),
// so it grades only sources whose conditionals decide alike for the simulator and a GPU
// (compile/conditional_macros). A conditional decides apart when it reads:
//   - a name one compiler defines where the other does not (in a .cu file that includes
//     nothing or one header the simulator implements: __CUDA_ARCH__, PARLAB_SIM, the
//     check build's __SANITIZE_THREAD__; compile/nvcc_macro_names);
//   - the value of a name nvcc or the CUDA headers define otherwise than g++, or the
//     simulator's headers define (CUDART_VERSION is the toolkit's), or of a reserved name
//     (`__x`, `_X`) other than those a compiler on the same machine defines alike for both
//     or neither defines (kSharedReserved in the .cpp: __CUDACC__, __GNUC__, _WIN32, ...);
//   - __has_include and its kin, or a token paste, which could spell any name.
// Where a lab's sources are not all .cu files, #ifdef is judged as a value is.
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
