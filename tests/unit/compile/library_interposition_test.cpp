// GPU builds refuse a submission that would replace a library function the grader's
// code calls (compile/library_interposition): the CUDA runtime's timer, dlsym.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "compile/elf_object.hpp"
#include "compile/library_interposition.hpp"

using namespace parlab::grader;

namespace {

const std::vector<std::filesystem::path> kSearch = {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
                                                    "/lib64", "/usr/lib64"};

// What this test program's own shared libraries define (the C and C++ libraries).
std::set<std::string> this_programs_library_names() {
  return names_libraries_define(parse_elf_object(read_object_file(std::filesystem::read_symlink("/proc/self/exe"))), kSearch);
}

ElfSymbol symbol(const std::string& name, SymbolBinding binding, bool defined) {
  return ElfSymbol{name, binding, defined};
}

}  // namespace

TEST_CASE("a program's needed libraries are read, and what they define is known") {
  const ElfObject self = parse_elf_object(read_object_file(std::filesystem::read_symlink("/proc/self/exe")));
  CHECK(std::find(self.needed.begin(), self.needed.end(), "libc.so.6") != self.needed.end());
  const std::set<std::string> names = this_programs_library_names();
  CHECK(names.count("dlsym") == 1);
  CHECK(names.count("clock_gettime") == 1);
  CHECK(names.count("my_kernel") == 0);
}

TEST_CASE("defining a C library function or a CUDA function is refused, naming each") {
  ElfObject object;
  object.symbols = {symbol("dlsym", SymbolBinding::global, true),
                    symbol("cudaEventElapsedTime", SymbolBinding::global, true),
                    symbol("cuEventElapsedTime_v2", SymbolBinding::weak, true),
                    symbol("clock_gettime", SymbolBinding::weak, true)};
  CHECK(library_interposing_definitions(object, this_programs_library_names()) ==
        std::vector<std::string>{"clock_gettime", "cuEventElapsedTime_v2", "cudaEventElapsedTime", "dlsym"});
}

TEST_CASE("ordinary CUDA code passes: C++ names, extern C kernels, calls, local helpers") {
  ElfObject object;
  object.symbols = {symbol("_ZN5lab0511sgemm_tiledEPKfS1_Pfiii", SymbolBinding::global, true),
                    symbol("my_kernel", SymbolBinding::global, true),  // an extern "C" kernel's stub
                    symbol("DW.ref.__gxx_personality_v0", SymbolBinding::weak, true),
                    symbol("cudaMalloc", SymbolBinding::global, false),  // a call
                    symbol("memcpy", SymbolBinding::global, false),
                    symbol("dlsym", SymbolBinding::local, true)};  // static: only its own file sees it
  CHECK(library_interposing_definitions(object, this_programs_library_names()).empty());
}

TEST_CASE("CUDA, NVML and cuBLAS function names are told from a student's own") {
  for (const char* name : {"cudaMalloc", "cuLaunchKernel", "nvmlDeviceGetClockInfo", "cublasSgemm_v2",
                           "__cudaRegisterFunction"}) {
    CHECK(is_cuda_library_name(name));
  }
  for (const char* name : {"cuda_check", "cute", "cub", "nvml", "my_cudaMalloc", "launch"}) {
    CHECK_FALSE(is_cuda_library_name(name));
  }
}
