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
  std::filesystem::path driver_lib;
  std::filesystem::path reference_exe;
  std::vector<std::string> libs;
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
  std::map<std::string, LabToolchain> labs;

  // Throws EnvironmentError when the lab was not built.
  const LabToolchain& lab(const std::string& id) const;
};

// PARLAB_TOOLCHAIN from the environment, else the build tree this binary came from.
std::filesystem::path default_toolchain_path();
// Throws EnvironmentError with what to run when the file is missing or broken.
Toolchain load_toolchain(const std::filesystem::path& file);

}  // namespace parlab::grader
