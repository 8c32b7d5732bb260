#include "compile/sim_without_nvcc.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "compile/nvcc_macro_names.hpp"

namespace parlab::grader {
namespace {

// Reserved names that decide alike for the simulator and a GPU build on one machine:
// __CUDACC__ (both define it for a .cu file and neither for a .cpp one), the host
// compiler's and the platform's own (the same g++ compiles nvcc's host pass, and nvcc's
// device pass copies them), and other platforms' and compilers', which neither defines.
constexpr std::array<std::string_view, 40> kSharedReserved = {
    "__CUDACC__", "__FILE__", "__LINE__", "__GNUC__", "__GNUC_MINOR__", "__GNUC_PATCHLEVEL__",
    "__GNUG__", "__linux__", "__linux", "__unix__", "__unix", "__x86_64__", "__x86_64",
    "__amd64__", "__aarch64__", "__LP64__", "_LP64", "__BYTE_ORDER__", "__ORDER_LITTLE_ENDIAN__",
    "__ORDER_BIG_ENDIAN__", "__CHAR_BIT__", "_WIN32", "_WIN64", "_MSC_VER", "__APPLE__",
    "__MACH__", "__clang__", "__clang_major__", "__INTEL_COMPILER", "__MINGW32__", "__MINGW64__",
    "__CYGWIN__", "__ANDROID__", "__HIP__", "__HIPCC__", "__HIP_PLATFORM_AMD__",
    "__HIP_PLATFORM_NVIDIA__", "__HIP_DEVICE_COMPILE__", "__EMSCRIPTEN__", "__FreeBSD__"};

bool is_reserved(std::string_view name) {
  return name.size() >= 2 && name[0] == '_' && (name[1] == '_' || std::isupper(static_cast<unsigned char>(name[1])));
}

// The names the simulator's compile defines: its headers', and its flags' -D names.
SimulatorMacros simulator_macros(const Toolchain& toolchain, bool every_source_cu) {
  SimulatorMacros sim{macros_defined_under(toolchain.sim.include_dirs), every_source_cu};
  const auto add_flags = [&](const std::vector<std::string>& flags) {
    for (const std::string& flag : flags) {
      if (!flag.starts_with("-D") || flag.size() == 2) continue;
      sim.names.push_back(flag.substr(2, flag.find_first_of("=(") - 2));
    }
  };
  add_flags(toolchain.cxx_flags);
  add_flags(toolchain.sim.check_flags);
  add_flags(toolchain.sim.divergence_flags);
  std::sort(sim.names.begin(), sim.names.end());
  return sim;
}

std::string where(const ConditionalRead& read, const std::string& display_file) {
  return display_file + ":" + std::to_string(read.line);
}

std::string what_it_reads(const ConditionalRead& read) {
  return read.macro == "##" ? "a token paste" : read.macro;
}

}  // namespace

bool decided_apart(std::string_view name, bool expanded, const SimulatorMacros& sim) {
  if (std::find(kSharedReserved.begin(), kSharedReserved.end(), name) != kSharedReserved.end()) return false;
  if (name.starts_with("__has_")) return true;  // __has_include(<a header only one has>)
  if (defined_in_one_only(name)) return true;
  const bool simulator_defines = std::binary_search(sim.names.begin(), sim.names.end(), name);
  // In .cu files, whether a name is defined decides alike unless one of them defines it
  // where the other does not: both define __CUDA_RUNTIME_H__ everywhere, neither defines
  // cuFFT's _CUFFT_H_ (including a header the simulator lacks stops the build). A name
  // only the simulator's headers define stays apart even if the list missed it.
  if (!expanded && sim.every_source_cu) return simulator_defines && !nvcc_may_define(name);
  return is_reserved(name) || nvcc_may_define(name) || simulator_defines;
}

std::optional<ConditionalRead> conditional_only_a_gpu_decides(const Toolchain& toolchain,
                                                              const std::filesystem::path& stage,
                                                              bool every_source_cu) {
  const SimulatorMacros sim = simulator_macros(toolchain, every_source_cu);
  return first_read_decided_apart(staged_student_files(stage), [&](std::string_view name, bool expanded) {
    return decided_apart(name, expanded, sim);
  });
}

std::string conditional_read_feature(const ConditionalRead& read, const std::string& display_file) {
  return "a conditional on " + what_it_reads(read) + ", which only nvcc can decide, at " +
         where(read, display_file);
}

std::string conditional_read_message(const ConditionalRead& read, const std::string& display_file) {
  return where(read, display_file) + ": this #if, #ifdef or #ifndef reads " + what_it_reads(read) +
         ", which nvcc and the simulator may decide differently (a macro of nvcc, of the CUDA "
         "headers or of the simulator, or a compiler's own). This parlab was built without nvcc, "
         "so it cannot check that the simulator compiles the lines a GPU does, and these tests "
         "need a GPU. To have them graded here, choose lines only by your own macros.";
}

}  // namespace parlab::grader
