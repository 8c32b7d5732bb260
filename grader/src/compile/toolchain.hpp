#pragma once
// What the CMake build recorded for compiling submissions (build/toolchain.json,
// written by cmake/ParlabLab.cmake): compiler, flags, harness and per-lab driver
// libraries, and the reference executables.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace parlab::grader {

struct LabToolchain {
  std::filesystem::path dir;            // labs/<dir>
  std::filesystem::path reference_dir;  // reference/<dir>
  std::filesystem::path driver_lib;     // CPU lab: g++; GPU lab: nvcc build (empty without nvcc)
  std::filesystem::path reference_exe;  // the same
  std::vector<std::string> libs;        // extra link libraries (-l)
  // The Python track's reference program (compile/python_program.hpp's layout, put
  // together by cmake/ParlabPythonTrack.cmake); empty for a lab without that track.
  std::filesystem::path python_reference_exe;
  // GPU labs only (cmake/ParlabGpuLab.cmake):
  std::filesystem::path cpu_reference_exe;  // the expected outputs
  std::filesystem::path sim_driver_lib;     // driver against the simulated runtime
  std::filesystem::path sim_reference_exe;
  bool gpu() const { return !sim_driver_lib.empty(); }
};

// How the simulation backend compiles .cu files (docs/simulation.md).
struct SimToolchain {
  std::filesystem::path rewrite_tool;
  std::filesystem::path library;
  std::vector<std::filesystem::path> include_dirs;
  std::string prelude;
  std::vector<std::string> link;  // further link inputs (Boost.Context)
  // The check build's instrumentation of CUDA sources: the race check's and the
  // counters' load and store hooks, and the branch-divergence hook. One list in
  // sim/CMakeLists.txt for these compiles and the precompiled prelude.
  std::vector<std::string> check_flags;
  std::vector<std::string> divergence_flags;
  // A folder holding parlab_sim/prelude.hpp.gch, the prelude precompiled with those
  // flags (g++ uses it when it is valid for the compile, else reads the header); empty:
  // none.
  std::filesystem::path prelude_pch_dir;
  // Works out a check build's code places once, for all its runs (grading/code_places);
  // empty (an older toolchain.json): the runs look their lines up themselves.
  std::filesystem::path code_places_tool;
  // Renames a .cu object's calls of C++'s new and delete to the runtime's (compile/
  // compile_steps); empty: objcopy from the compiler's folder.
  std::filesystem::path objcopy;
};

struct Toolchain {
  std::filesystem::path file;
  std::filesystem::path source_dir;
  std::filesystem::path build_dir;
  std::string version;
  std::string cxx;
  std::string cxx_standard;
  std::vector<std::string> cxx_flags;
  std::filesystem::path harness_include;
  std::filesystem::path harness_lib;
  bool cuda = false;
  std::filesystem::path nvcc;        // empty without CUDA
  std::filesystem::path cuda_probe;  // empty without CUDA
  // __CUDA_ARCH__ of every GPU architecture that nvcc compiles for ("900"); empty
  // without CUDA (compile/compiled_views).
  std::vector<std::string> nvcc_architectures;
  // NVIDIA's compute-sanitizer from the toolkit found at configure time; empty when
  // that toolkit has none (then GPU correctness tests run without it, said in the report).
  std::filesystem::path compute_sanitizer;
  SimToolchain sim;
  std::map<std::string, LabToolchain> labs;

  // Throws EnvironmentError when the lab was not built.
  const LabToolchain& lab(const std::string& id) const;
};

// PARLAB_TOOLCHAIN from the environment, else the build tree this binary came from.
std::filesystem::path default_toolchain_path();
// Throws EnvironmentError with what to run when the file is missing or broken.
Toolchain load_toolchain(const std::filesystem::path& file);

}  // namespace parlab::grader
