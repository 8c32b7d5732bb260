// compile/conditional_macros and compile/sim_without_nvcc: which macros a student's
// conditionals read, and which of them a sim build made without nvcc leaves to a GPU;
// against this machine's compilers, that every macro nvcc or the simulator's compile
// defines otherwise than g++ is among those.
#include "compile/conditional_macros.hpp"
#include "compile/nvcc_macro_names.hpp"
#include "compile/sim_without_nvcc.hpp"
#include "compile/toolchain.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace parlab::grader;

namespace {

// The first read of one of `apart` in `files` (name: text), as "file:line macro".
std::string first_read(const std::vector<SourceFile>& files, const std::set<std::string>& apart) {
  const auto read =
      first_read_decided_apart(files, [&](std::string_view n, bool) { return apart.contains(std::string(n)); });
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
  // Read as the preprocessor reads: splices first (one may close a comment or continue a
  // line, with blanks before the break), whole numbers (a digit separator is no quote),
  // exact raw-string prefixes, the digraph %: for #.
  CHECK(first_read("/* a *\\\n/\n#ifdef PARLAB_SIM\n#endif\n", apart) == "k.cu:3 PARLAB_SIM");
  CHECK(first_read("#if 0 \\  \n || defined(PARLAB_SIM)\n#endif\n", apart) == "k.cu:1 PARLAB_SIM");
  CHECK(first_read("#if 1'0 /* ' */ || PARLAB_SIM\n#endif\n", apart) == "k.cu:1 PARLAB_SIM");
  CHECK(first_read("#define M(...)\nM(1'2'/*')\n#ifdef PARLAB_SIM\n#endif\n", apart) == "k.cu:3 PARLAB_SIM");
  CHECK(first_read("#define B\nconst char* s = B\"(\";\n#ifdef PARLAB_SIM\n#endif\n// )\"\n", apart) ==
        "k.cu:3 PARLAB_SIM");
  CHECK(first_read("auto s = u8R\"d(\n#ifdef PARLAB_SIM\n)d\";\n%:ifdef __CUDA_ARCH__\n", apart) ==
        "k.cu:4 __CUDA_ARCH__");
  CHECK(first_read("#define CAT(a, b) a %:%: b\n#if CAT(PARLAB, _SIM)\n#endif\n", apart) == "k.cu:2 ##");
  CHECK(first_read("#i\\\nfdef PARLAB_\\\nSIM\n#endif\n", apart) == "k.cu:1 PARLAB_SIM");
  // The first by file name, then line.
  CHECK(first_read({{"b.cu", "#ifdef PARLAB_SIM\n#endif\n"}, {"a.cuh", "\n\n#if __CUDA_ARCH__\n#endif\n"}}, apart) ==
        "a.cuh:3 __CUDA_ARCH__");
}

TEST_CASE("without nvcc, the names nvcc, the CUDA headers or the simulator may decide otherwise",
          "[compile][views]") {
  SimulatorMacros sim{{"CUDART_PI_F", "PARLAB_SIM", "cudaStreamPerThread"}, false};
  for (const char* apart : {"__CUDA_ARCH__", "__CUDA_ARCH_LIST__", "PARLAB_SIM", "__PARLAB_X", "CUDART_VERSION",
                            "CUDA_VERSION", "__CUDA_RUNTIME_H__", "__NVCC__", "__CUDACC_VER_MAJOR__",
                            "_CG_HAS_CLUSTER_GROUP", "NV_IF_TARGET", "__SANITIZE_THREAD__", "_REENTRANT",
                            "__OPTIMIZE__", "__has_include", "__cplusplus", "CUDART_PI_F", "cudaStreamPerThread"}) {
    INFO(apart);
    CHECK(decided_apart(apart, true, sim));
    CHECK(decided_apart(apart, false, sim));
  }
  for (const char* alike : {"__CUDACC__", "DEBUG", "NDEBUG", "CUDA_CHECK", "USE_SHARED", "M_PI", "INT_MAX",
                            "_WIN32", "__GNUC__", "__x86_64__", "BLOCK_SIZE", "PARLAB_MY_HELPERS_H"}) {
    INFO(alike);
    CHECK_FALSE(decided_apart(alike, true, sim));
  }
  // In a lab of .cu sources only, #ifdef agrees on a name both define in the same files,
  // and on one neither may define; a value may still differ (CUDART_VERSION is the
  // toolkit's).
  sim.every_source_cu = true;
  for (const char* name : {"__CUDA_RUNTIME_H__", "__DRIVER_TYPES_H__", "CUDART_VERSION", "__NVCC__", "CURAND_H_",
                           "CUBLAS_API_H_", "_CUFFT_H_", "NV_NPPIDEFS_H"}) {
    INFO(name);
    CHECK_FALSE(decided_apart(name, false, sim));
  }
  for (const char* name : {"__CUDA_RUNTIME_H__", "CUDART_VERSION", "_CUFFT_H_"}) {
    INFO(name);
    CHECK(decided_apart(name, true, sim));
  }
  // nvcc's own guard, which the simulator's header lacks; a standard header the simulator's
  // prelude includes and nvcc's does not.
  for (const char* name : {"__CUDA_ARCH__", "PARLAB_SIM", "__SANITIZE_THREAD__", "_REENTRANT", "__has_include",
                           "__CUDA_RUNTIME_API_H__", "_GLIBCXX_VECTOR"}) {
    INFO(name);
    CHECK(decided_apart(name, false, sim));
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
  CHECK_FALSE(conditional_only_a_gpu_decides(toolchain, stage, true));
  std::ofstream(stage / "common" / "h.cuh") << "\n#ifndef __CUDA_ARCH__\n#endif\n";
  const auto read = conditional_only_a_gpu_decides(toolchain, stage, true);
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

std::set<std::string> names_of(const std::set<std::string>& defines) {
  std::set<std::string> names;
  for (const std::string& d : defines) names.insert(name_of(d));
  return names;
}

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

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += " " + w;
  return out;
}

// g++ as the simulator's compile of a .cu file runs it, to print its macros: flags,
// headers, prelude.
std::string simulator_preprocessor(const Toolchain& toolchain) {
  std::string command = toolchain.cxx + " -std=" + toolchain.cxx_standard + joined(toolchain.cxx_flags) +
                        joined(toolchain.sim.check_flags) + joined(toolchain.sim.divergence_flags);
  for (const auto& d : toolchain.sim.include_dirs) command += " -I" + d.string();
  return command + " -include " + toolchain.sim.prelude + " -include parlab_sim/nvcc_macros.hpp -E -dM -x c++ ";
}

std::filesystem::path scratch(const std::string& what) {
  const auto dir = std::filesystem::temp_directory_path() / ("parlab-cond-" + what + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace

TEST_CASE("every macro the simulator's compile defines otherwise than g++ is left to a GPU",
          "[compile][views]") {
  const Toolchain toolchain = load_toolchain(default_toolchain_path());
  const std::filesystem::path dir = scratch("sim");
  std::ofstream(dir / "std.cpp") << kStandardHeaders;
  std::ofstream(dir / "all.cpp") << kStandardHeaders << "#include <cuda_runtime.h>\n#include <cooperative_groups.h>\n";
  std::ofstream(dir / "empty.cu") << "";
  const std::string plain = toolchain.cxx + " -std=" + toolchain.cxx_standard + " -E -dM -x c++ ";
  const auto names = defined_otherwise(defines_of(simulator_preprocessor(toolchain) + (dir / "all.cpp").string()),
                                       defines_of(plain + (dir / "std.cpp").string()));
  CHECK(names.size() > 20);  // the CUDA names the simulator mirrors, at least
  SimulatorMacros sim{macros_defined_under(toolchain.sim.include_dirs), false};
  std::sort(sim.names.begin(), sim.names.end());
  for (const std::string& name : names) {
    if (name == "__CUDACC__") continue;  // nvcc's too
    INFO(name);
    CHECK(decided_apart(name, true, sim));
  }
  // What the flags add is listed as defined by one only, so that #ifdef of it is left to
  // a GPU in a .cu file too.
  const std::string flags = joined(toolchain.cxx_flags) + joined(toolchain.sim.check_flags) +
                            joined(toolchain.sim.divergence_flags);
  const auto flagged = defined_otherwise(defines_of(toolchain.cxx + " -std=" + toolchain.cxx_standard + flags +
                                                    " -E -dM -x c++ " + (dir / "empty.cu").string()),
                                         defines_of(plain + (dir / "empty.cu").string()));
  CHECK(flagged.contains("__SANITIZE_THREAD__"));
  sim.every_source_cu = true;
  for (const std::string& name : flagged) {
    INFO(name);
    CHECK(defined_in_one_only(name));
    CHECK(decided_apart(name, false, sim));
  }
  std::filesystem::remove_all(dir);
}

#ifdef PARLAB_TEST_NVCC
TEST_CASE("every macro nvcc defines otherwise than g++, for the host or sm_90, is in the list",
          "[compile][views]") {
  const std::filesystem::path dir = scratch("nvcc");
  std::ofstream(dir / "std.cpp") << kStandardHeaders;
  std::ofstream(dir / "all.cu") << kStandardHeaders << "#include <cuda_runtime.h>\n#include <cooperative_groups.h>\n";
  const std::string nvcc = PARLAB_TEST_NVCC;
  const auto gxx = defines_of("g++ -std=c++20 -E -dM -x c++ " + (dir / "std.cpp").string());
  const SimulatorMacros none;
  for (const std::string& pass : {std::string(""), std::string("--cuda -arch=sm_90 ")}) {
    const auto names = defined_otherwise(
        defines_of(nvcc + " -std=c++20 -E -Xcompiler=-dM " + pass + (dir / "all.cu").string() + " -o -"), gxx);
    CHECK(names.size() > 100);
    for (const std::string& name : names) {
      if (name == "__CUDACC__") continue;  // the simulator's too, for a .cu file
      INFO(pass << name);
      CHECK(decided_apart(name, true, none));
    }
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("every name nvcc or the simulator defines where the other does not is listed as such",
          "[compile][views]") {
  const Toolchain toolchain = load_toolchain(default_toolchain_path());
  const std::filesystem::path dir = scratch("alike");
  const std::string nvcc = PARLAB_TEST_NVCC;
  int file = 0;
  for (const char* header : {"", "cuda_runtime.h", "cublas_v2.h", "cooperative_groups.h", "math_constants.h"}) {
    const std::filesystem::path source = dir / ("case" + std::to_string(++file) + ".cu");
    std::ofstream(source) << (*header != '\0' ? std::string("#include <") + header + ">\n" : "");
    const auto sim = names_of(defines_of(simulator_preprocessor(toolchain) + source.string()));
    for (const std::string& pass : {std::string(""), std::string("--cuda -arch=sm_90 ")}) {
      const auto gpu =
          names_of(defines_of(nvcc + " -std=c++20 -E -Xcompiler=-dM " + pass + source.string() + " -o -"));
      std::vector<std::string> in_one;
      std::set_symmetric_difference(gpu.begin(), gpu.end(), sim.begin(), sim.end(), std::back_inserter(in_one));
      CHECK(in_one.size() > 10);
      for (const std::string& name : in_one) {
        INFO(header << " " << pass << name);
        CHECK(defined_in_one_only(name));
      }
    }
  }
  CHECK_FALSE(defined_in_one_only("__CUDA_RUNTIME_H__"));  // both, everywhere
  std::filesystem::remove_all(dir);
}
#endif
