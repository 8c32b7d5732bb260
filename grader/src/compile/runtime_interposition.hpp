#pragma once
// Sim builds refuse a submission that would replace code the simulator runtime runs
// (docs/sandbox.md, "Nothing the submission can observe decides a verdict"). The
// runtime is linked into the submission's program (toolchain.json's sim library, one
// object whose private names are already local: sim/tools/seal_runtime.sh). What is
// left to the linker's choice: a function the runtime calls from a library (memcpy,
// write, open ...), which a definition of the same name in the submission would
// replace for the runtime too; and an inline function both hold a copy of, where the
// linker keeps the runtime's (it comes first on the link line) unless the submission's
// copy is a strong definition. Both are refused, naming the symbol. So is a definition of
// memcpy, memmove or memset, which a sim build's prelude renames to the runtime's checked
// copies (parlab_sim/checked_library_calls.hpp): named as written, not as renamed.
#include <set>
#include <string>
#include <vector>

#include "compile/elf_object.hpp"

namespace parlab::grader {

struct RuntimeNames {
  std::set<std::string> imports;        // undefined in the runtime: resolved by the link
  std::set<std::string> weak_definitions;  // inline copies the linker may share
};

RuntimeNames runtime_names_of(const ElfObject& runtime);

// The submission object's definitions that would replace the runtime's code (mangled
// names, sorted, at most `limit`).
std::vector<std::string> interposing_definitions(const ElfObject& submission,
                                                 const RuntimeNames& runtime,
                                                 std::size_t limit = 8);

}  // namespace parlab::grader
