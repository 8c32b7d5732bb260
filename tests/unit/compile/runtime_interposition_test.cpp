// Sim builds refuse a submission that would replace code the simulator runtime runs
// (compile/runtime_interposition), and the grader's copy of the runtime keeps its
// private names private (sim/tools/seal_runtime.sh).
#include <catch2/catch.hpp>
#include <string>

#include "compile/elf_object.hpp"
#include "compile/runtime_interposition.hpp"

using namespace parlab::grader;

namespace {

ElfSymbol symbol(const std::string& name, SymbolBinding binding, bool defined) {
  return ElfSymbol{name, binding, defined};
}

ElfObject runtime_like() {
  ElfObject runtime;
  runtime.symbols = {symbol("memcpy", SymbolBinding::global, false),
                     symbol("write", SymbolBinding::global, false),
                     symbol("cudaMalloc", SymbolBinding::global, true),
                     symbol("_ZNSt6vectorIfSaIfEE17_M_realloc_insert", SymbolBinding::weak, true),
                     symbol("secret_helper", SymbolBinding::local, true)};
  return runtime;
}

}  // namespace

TEST_CASE("a submission may not define what the runtime imports, nor a strong copy of its inline code") {
  const RuntimeNames names = runtime_names_of(runtime_like());
  CHECK(names.imports.count("memcpy") == 1);
  CHECK(names.imports.count("cudaMalloc") == 0);
  ElfObject submission;
  submission.symbols = {symbol("memcpy", SymbolBinding::global, true),
                        symbol("write", SymbolBinding::weak, true),
                        symbol("_ZNSt6vectorIfSaIfEE17_M_realloc_insert", SymbolBinding::global, true),
                        symbol("my_kernel", SymbolBinding::global, true)};
  const std::vector<std::string> found = interposing_definitions(submission, names);
  CHECK(found == std::vector<std::string>{"_ZNSt6vectorIfSaIfEE17_M_realloc_insert", "memcpy", "write"});
}

TEST_CASE("a submission's memcpy, renamed by the sim prelude to the runtime's checked copy, is named as written") {
  const RuntimeNames names = runtime_names_of(runtime_like());
  ElfObject submission;
  submission.symbols = {symbol("parlab_sim_checked_memcpy", SymbolBinding::global, true),
                        symbol("parlab_sim_checked_memset", SymbolBinding::global, false)};  // a call
  CHECK(interposing_definitions(submission, names) == std::vector<std::string>{"memcpy"});
}

TEST_CASE("ordinary student code passes: its own names, calls to libraries, shared inline copies") {
  const RuntimeNames names = runtime_names_of(runtime_like());
  ElfObject submission;
  submission.symbols = {symbol("memcpy", SymbolBinding::global, false),  // a call, not a definition
                        symbol("_ZNSt6vectorIfSaIfEE17_M_realloc_insert", SymbolBinding::weak, true),
                        symbol("secret_helper", SymbolBinding::global, true),  // the runtime's is local
                        symbol("saxpy", SymbolBinding::global, true)};
  CHECK(interposing_definitions(submission, names).empty());
}

TEST_CASE("the grader's copy of the runtime keeps the report key and the sealing code private") {
  const ElfObject runtime = parse_elf_object(read_object_file(PARLAB_SIM_SEALED_OBJECT));
  bool api_global = false;
  int private_names = 0;
  for (const ElfSymbol& s : runtime.symbols) {
    // Not even as local names: a running program reads its own symbol table
    // (/proc/self/exe), so a local name is a map to the key or the sealing code.
    const bool sealed_name = s.name.find("10parlab_sim6sealed") != std::string::npos;
    const bool nettle_name = s.name.rfind("nettle_", 0) == 0;
    const bool settings_name = s.name.find("runtime_settings") != std::string::npos ||
                               s.name.find("g_locked") != std::string::npos ||
                               s.name.find("lock_runtime") != std::string::npos;
    if ((sealed_name || nettle_name || settings_name) && s.defined) {
      FAIL_CHECK("a private name in the grader's runtime: " << s.name);
    }
    if (s.name.rfind("parlab_private_", 0) == 0) ++private_names;
    if (s.name == "cudaMemcpy" || s.name.rfind("_Z10cudaMemcpy", 0) == 0)
      api_global = api_global || (s.defined && s.binding == SymbolBinding::global);
  }
  CHECK(api_global);  // the public API stays linkable
  CHECK(private_names > 0);  // renamed, not kept (what function_bounds needs stays)
}
