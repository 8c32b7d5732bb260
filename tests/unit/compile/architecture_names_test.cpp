// compile/architecture_names: which sources may choose lines by the GPU architecture
// (and so need a sim build's view of every architecture), and, against this machine's
// nvcc, that the families it looks for hold every macro the CUDA headers define
// differently from one architecture to another.
#include "compile/architecture_names.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace parlab::grader;

TEST_CASE("a source may read the GPU architecture when it names one of the families or "
          "pastes tokens, outside comments and strings", "[compile][views]") {
  CHECK_FALSE(may_read_gpu_architecture("__global__ void k(float* x) { x[threadIdx.x] = 1; }\n"
                                        "void run() { cudaMalloc(&p, 4); cudaDeviceSynchronize(); }\n"));
  CHECK(may_read_gpu_architecture("#if __CUDA_ARCH__ >= 800\n#endif\n"));
  CHECK(may_read_gpu_architecture("#if defined(__CUDA_ARCH_LIST__)\n#endif\n"));
  CHECK(may_read_gpu_architecture("#ifdef _CG_HAS_CLUSTER_GROUP\n#endif\n"));
  CHECK(may_read_gpu_architecture("NV_IF_TARGET(NV_PROVIDES_SM_90, (a();), (b();))\n"));
  // The same on every architecture: a student's CUDA_CHECK, nvcc's __CUDACC__.
  CHECK_FALSE(may_read_gpu_architecture("#define CUDA_CHECK(x) x\n#ifdef __CUDACC__\n#endif\n"));
  CHECK(may_read_gpu_architecture("#if __CUDA_ARCH_FEAT_SM90_ALL\n#endif\n"));
  CHECK(may_read_gpu_architecture("#define CAT(a, b) a##b\n"));  // could spell __CUDA_ARCH__
  CHECK_FALSE(may_read_gpu_architecture("// needs __CUDA_ARCH__ >= 600\n/* CUDA ## */ int x;\n"));
  CHECK_FALSE(may_read_gpu_architecture("const char* s = \"CUDA error ##\"; char c = '#';\n"));
  CHECK_FALSE(may_read_gpu_architecture("int MY_CUDA_COUNT = 0; int cuda_ok;\n"));  // not a prefix
  // Read as the preprocessor reads: a digit separator is no quote (here it would hide the
  // #if in a "comment"), a splice joins a name, B"( is no raw string.
  CHECK(may_read_gpu_architecture("#define M(...)\nM(1'2'/*')\n#if __CUDA_ARCH__ == 800\n#endif\n// */\n"));
  CHECK(may_read_gpu_architecture("#if __CUDA_\\\nARCH__ == 800\n#endif\n"));
  CHECK(may_read_gpu_architecture("#define B\nconst char* s = B\"(\";\n#if __CUDA_ARCH__\n#endif\n// )\"\n"));
}

TEST_CASE("the staged sources are read, the simulator's rewritten copies are not", "[compile][views]") {
  const std::filesystem::path stage =
      std::filesystem::temp_directory_path() / ("parlab-arch-" + std::to_string(::getpid()));
  std::filesystem::remove_all(stage);
  std::filesystem::create_directories(stage / "sim");
  std::filesystem::create_directories(stage / "common");
  std::ofstream(stage / "lab.cu") << "__global__ void k() {}\n";
  std::ofstream(stage / "sim" / "lab.cu.view-sm_90.ii") << "#define __CUDA_ARCH__ 900\n";
  CHECK_FALSE(sources_may_read_gpu_architecture(stage));
  std::ofstream(stage / "common" / "helpers.cuh") << "#if __CUDA_ARCH__ < 700\n#endif\n";
  CHECK(sources_may_read_gpu_architecture(stage));
  std::filesystem::remove_all(stage);
}

namespace {

// name -> definition of every macro after the headers a sim build provides, as nvcc's
// device pass for `arch` (900) defines them.
std::map<std::string, std::string> macros_for(const std::string& nvcc, const std::filesystem::path& source,
                                              const std::string& arch) {
  const std::string command = nvcc + " -std=c++20 -arch=sm_80 -E -Xcompiler=-dM -Xcompiler=-U__CUDA_ARCH__,-D__CUDA_ARCH__=" +
                              arch + ",-U__CUDA_ARCH_LIST__,-D__CUDA_ARCH_LIST__=" + arch + " " +
                              source.string() + " -o - 2>/dev/null";
  std::map<std::string, std::string> macros;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return macros;
  std::array<char, 4096> buffer{};
  std::string text;
  while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) text += buffer.data();
  ::pclose(pipe);
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.starts_with("#define ")) continue;
    const std::string rest = line.substr(8);
    const std::size_t end = rest.find_first_of(" (");
    macros[rest.substr(0, end)] = rest;
  }
  return macros;
}

}  // namespace

TEST_CASE("every macro the CUDA headers define differently per architecture is of the "
          "families a sim build looks for (this machine's nvcc)", "[compile][views][nvcc]") {
#ifdef PARLAB_TEST_NVCC
  const std::string nvcc = PARLAB_TEST_NVCC;
#else
  const std::string nvcc;
#endif
  if (nvcc.empty() || !std::filesystem::exists(nvcc)) {
    WARN("skipped: this build has no nvcc, so no CUDA headers to check the families against");
    return;
  }
  const std::filesystem::path source =
      std::filesystem::temp_directory_path() / ("parlab-arch-macros-" + std::to_string(::getpid()) + ".cu");
  // The CUDA headers the simulator provides (sim/include/cuda_compat), the others stop a
  // sim build as "needs a GPU".
  std::ofstream(source) << "#include <cuda_runtime.h>\n#include <cooperative_groups.h>\n"
                           "#include <cooperative_groups/reduce.h>\n#include <cuda/barrier>\n"
                           "#include <math_constants.h>\n#include <device_launch_parameters.h>\n"
                           "#include <cuda_profiler_api.h>\n#include <vector_functions.h>\n";
  std::vector<std::map<std::string, std::string>> per_arch;
  for (const char* arch : {"750", "800", "860", "890", "900", "1000", "1200"}) {
    per_arch.push_back(macros_for(nvcc, source, arch));
    REQUIRE(per_arch.back().size() > 1000);  // the headers were read
  }
  std::filesystem::remove(source);
  std::set<std::string> differing;
  for (const auto& macros : per_arch) {
    for (const auto& [name, definition] : macros) {
      for (const auto& other : per_arch) {
        const auto it = other.find(name);
        if (it == other.end() || it->second != definition) differing.insert(name);
      }
    }
  }
  CHECK(differing.count("__CUDA_ARCH__") == 1);  // the comparison sees a difference at all
  for (const std::string& name : differing) {
    INFO("a macro that differs between architectures: " << name);
    CHECK(names_gpu_architecture(name));
  }
}
