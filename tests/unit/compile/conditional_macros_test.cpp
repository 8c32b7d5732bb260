// compile/conditional_macros and compile/sim_without_nvcc: which macros a student's
// conditionals read, and which of them a sim build made without nvcc leaves to a GPU;
// against this machine's compilers, that every macro nvcc or the simulator's compile
// defines otherwise than g++ is among those.
#include "compile/conditional_macros.hpp"
#include "compile/sim_without_nvcc.hpp"
#include "compile/toolchain.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace parlab::grader;

namespace {

// The first read of one of `apart` in `files` (name: text), as "file:line macro".
std::string first_read(const std::vector<SourceFile>& files, const std::set<std::string>& apart) {
  const auto read = first_read_decided_apart(files, [&](std::string_view n) { return apart.contains(std::string(n)); });
  return read ? read->file + ":" + std::to_string(read->line) + " " + read->macro : "none";
}

std::string first_read(const std::string& text, const std::set<std::string>& apart) {
  return first_read({{"k.cu", text}}, apart);
}

}  // namespace

TEST_CASE("a conditional's reads: its names, #ifdef's, and a student's macros an #if expands",
          "[compile][views]") {
  const std::set<std::string> apart = {"__CUDA_ARCH__", "PARLAB_SIM", "cudaGetErrorString"};
  CHECK(first_read("int x;\n#if __CUDA_ARCH__ >= 700\n#endif\n", apart) == "k.cu:2 __CUDA_ARCH__");
  CHECK(first_read("#ifdef PARLAB_SIM\n#endif\n", apart) == "k.cu:1 PARLAB_SIM");
  CHECK(first_read("#  elifndef PARLAB_SIM\n", apart) == "k.cu:1 PARLAB_SIM");
  CHECK(first_read("#if defined(DEBUG) && !defined PARLAB_SIM\n#endif\n", apart) == "k.cu:1 PARLAB_SIM");
  // Through the student's own macros, wherever they are defined.
  CHECK(first_read({{"a.cuh", "#define ON_GPU defined(__CUDA_ARCH__)\n"}, {"k.cu", "\n#if ON_GPU\n#endif\n"}},
                   apart) == "k.cu:2 __CUDA_ARCH__");
  CHECK(first_read("#define IS(x) x\n#define SIM IS(PARLAB_SIM)\n#if SIM\n#endif\n", apart) == "k.cu:3 PARLAB_SIM");
  // #ifndef asks only whether a macro is defined: the body of a CUDA_CHECK is not read.
  CHECK(first_read("#ifndef CUDA_CHECK\n#define CUDA_CHECK(e) cudaGetErrorString(e)\n#endif\n", apart) == "none");
  CHECK(first_read("#define CUDA_CHECK(e) cudaGetErrorString(e)\n#if defined(CUDA_CHECK)\n#endif\n", apart) == "none");
  // A paste in a conditional's macro could spell any name.
  CHECK(first_read("#define CAT(a, b) a##b\n#if CAT(PARLAB, _SIM)\n#endif\n", apart) == "k.cu:2 ##");
  CHECK(first_read("#define CAT(a, b) a##b\nint CAT(x, y);\n#if 1\n#endif\n", apart) == "none");
  // Directives only: comments, strings and code name nothing; lines are counted through them.
  CHECK(first_read("// #if __CUDA_ARCH__\n/* #ifdef PARLAB_SIM\n*/ int x;\n", apart) == "none");
  CHECK(first_read("const char* s = \"#ifdef PARLAB_SIM\";\nint y = 1; # if __CUDA_ARCH__\n", apart) == "none");
  CHECK(first_read("auto r = R\"x(\n#ifdef PARLAB_SIM\n)x\";\n#if 1 // PARLAB_SIM\n#endif\n", apart) == "none");
  CHECK(first_read("/* a\n b */ #if \\\n  __CUDA_ARCH__\n#endif\n", apart) == "k.cu:2 __CUDA_ARCH__");
  CHECK(first_read("#if 1 /* two\nlines */ && \\\n 1\n#endif\n#ifdef PARLAB_SIM\n", apart) == "k.cu:5 PARLAB_SIM");
  CHECK(first_read("#if 0x1Fu > 1e5f\n#endif\n", {"x1Fu", "e5f"}) == "none");
  // The first by file name, then line.
  CHECK(first_read({{"b.cu", "#ifdef PARLAB_SIM\n#endif\n"}, {"a.cuh", "\n\n#if __CUDA_ARCH__\n#endif\n"}}, apart) ==
        "a.cuh:3 __CUDA_ARCH__");
}

TEST_CASE("without nvcc, the names nvcc, the CUDA headers or the simulator may decide otherwise",
          "[compile][views]") {
  const std::vector<std::string> sim = {"CUDART_PI_F", "PARLAB_SIM", "cudaStreamPerThread"};
  for (const char* apart : {"__CUDA_ARCH__", "__CUDA_ARCH_LIST__", "PARLAB_SIM", "__PARLAB_X", "CUDART_VERSION", "CUDA_VERSION", "__CUDA_RUNTIME_H__",
                            "__NVCC__", "__CUDACC_VER_MAJOR__", "_CG_HAS_CLUSTER_GROUP", "NV_IF_TARGET",
                            "__SANITIZE_THREAD__", "_REENTRANT", "__OPTIMIZE__", "__has_include",
                            "__cplusplus", "CUDART_PI_F", "cudaStreamPerThread"}) {
    INFO(apart);
    CHECK(decided_apart(apart, sim));
  }
  for (const char* alike : {"__CUDACC__", "DEBUG", "NDEBUG", "CUDA_CHECK", "USE_SHARED", "M_PI", "INT_MAX",
                            "_WIN32", "__GNUC__", "__x86_64__", "BLOCK_SIZE", "PARLAB_MY_HELPERS_H"}) {
    INFO(alike);
    CHECK_FALSE(decided_apart(alike, sim));
  }
}

TEST_CASE("a sim build's stage: the student's files are read, the simulator's folder is not",
          "[compile][views]") {
  const std::filesystem::path stage =
      std::filesystem::temp_directory_path() / ("parlab-cond-" + std::to_string(::getpid()));
  std::filesystem::remove_all(stage);
  std::filesystem::create_directories(stage / "sim");
  std::filesystem::create_directories(stage / "common");
  std::ofstream(stage / "lab.cu") << "#include \"common/h.cuh\"\n#ifdef DEBUG\n#endif\n";
  std::ofstream(stage / "sim" / "lab.cu.cpp") << "#ifdef PARLAB_SIM\n#endif\n";
  Toolchain toolchain;
  CHECK_FALSE(conditional_only_a_gpu_decides(toolchain, stage));
  std::ofstream(stage / "common" / "h.cuh") << "\n#ifndef __CUDA_ARCH__\n#endif\n";
  const auto read = conditional_only_a_gpu_decides(toolchain, stage);
  REQUIRE(read);
  CHECK(read->file == "common/h.cuh");
  CHECK(read->line == 2);
  CHECK(conditional_read_feature(*read, "common/h.cuh") ==
        "a conditional on __CUDA_ARCH__, which only nvcc can decide, at common/h.cuh:2");
  std::filesystem::remove_all(stage);
}

namespace {

// name + definition of every macro `command` (a preprocessor run with -dM) prints.
std::set<std::string> defines_of(const std::string& command) {
  std::set<std::string> lines;
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) {
    std::string line(buffer.data());
    if (line.starts_with("#define ")) lines.insert(line.substr(8));
  }
  CHECK(::pclose(pipe) == 0);
  return lines;
}

std::string name_of(const std::string& define) { return define.substr(0, define.find_first_of(" (\n")); }

// The macros `compiler` defines otherwise than plain g++ with the standard headers.
std::set<std::string> defined_otherwise(const std::set<std::string>& compiler, const std::set<std::string>& gxx) {
  std::set<std::string> names;
  for (const std::string& d : compiler) {
    if (!gxx.contains(d)) names.insert(name_of(d));
  }
  return names;
}

const char* kStandardHeaders =
    "#include <cstddef>\n#include <source_location>\n#include <cstdint>\n#include <utility>\n"
    "#include <type_traits>\n#include <math.h>\n#include <vector>\n#include <tuple>\n#include <string_view>\n"
    "#include <stdlib.h>\n#include <memory>\n#include <cstring>\n#include <bit>\n#include <time.h>\n"
    "#include <string>\n#include <stdio.h>\n#include <new>\n#include <functional>\n#include <cmath>\n"
    "#include <atomic>\n#include <assert.h>\n#include <limits>\n#include <algorithm>\n#include <iostream>\n"
    "#include <pthread.h>\n#include <unistd.h>\n#include <cfloat>\n#include <climits>\n";

}  // namespace

TEST_CASE("every macro the simulator's compile defines otherwise than g++ is left to a GPU",
          "[compile][views]") {
  const Toolchain toolchain = load_toolchain(default_toolchain_path());
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("parlab-cond-sim-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "std.cpp") << kStandardHeaders;
  std::ofstream(dir / "all.cpp") << kStandardHeaders << "#include <cuda_runtime.h>\n#include <cooperative_groups.h>\n";
  std::string flags = "-std=" + toolchain.cxx_standard;
  for (const std::string& f : toolchain.cxx_flags) flags += " " + f;
  std::string sim = flags;
  for (const std::string& f : toolchain.sim.check_flags) sim += " " + f;
  for (const std::string& f : toolchain.sim.divergence_flags) sim += " " + f;
  for (const auto& d : toolchain.sim.include_dirs) sim += " -I" + d.string();
  const std::string prelude = toolchain.sim.prelude;
  sim += " -include " + prelude + " -include " + std::filesystem::path(prelude).parent_path().string() +
         "/nvcc_macros.hpp";
  const auto gxx = defines_of(toolchain.cxx + " -std=" + toolchain.cxx_standard + " -E -dM -x c++ " +
                              (dir / "std.cpp").string());
  const auto names = defined_otherwise(defines_of(toolchain.cxx + " " + sim + " -E -dM -x c++ " +
                                                  (dir / "all.cpp").string()), gxx);
  CHECK(names.size() > 20);  // the CUDA names the simulator mirrors, at least
  std::vector<std::string> sim_names = macros_defined_under(toolchain.sim.include_dirs);
  std::sort(sim_names.begin(), sim_names.end());
  for (const std::string& name : names) {
    if (name == "__CUDACC__") continue;  // nvcc's too
    INFO(name);
    CHECK(decided_apart(name, sim_names));
  }
  std::filesystem::remove_all(dir);
}

#ifdef PARLAB_TEST_NVCC
TEST_CASE("every macro nvcc defines otherwise than g++, for the host or sm_90, is in the list",
          "[compile][views]") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("parlab-cond-nvcc-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "std.cpp") << kStandardHeaders;
  std::ofstream(dir / "all.cu") << kStandardHeaders << "#include <cuda_runtime.h>\n#include <cooperative_groups.h>\n";
  const std::string nvcc = PARLAB_TEST_NVCC;
  const auto gxx = defines_of("g++ -std=c++20 -E -dM -x c++ " + (dir / "std.cpp").string());
  for (const std::string& pass : {std::string(""), std::string("--cuda -arch=sm_90 ")}) {
    const auto names = defined_otherwise(
        defines_of(nvcc + " -std=c++20 -E -Xcompiler=-dM " + pass + (dir / "all.cu").string() + " -o -"), gxx);
    CHECK(names.size() > 100);
    for (const std::string& name : names) {
      if (name == "__CUDACC__") continue;  // the simulator's too, for a .cu file
      INFO(pass << name);
      CHECK(decided_apart(name, {}));
    }
  }
  std::filesystem::remove_all(dir);
}
#endif
