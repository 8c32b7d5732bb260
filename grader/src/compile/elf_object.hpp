#pragma once
// The parts of a 64-bit little-endian ELF file the build checks read (section names
// and sizes, symbol names and bindings, the libraries a program needs), parsed with
// every offset bounds-checked: the objects come from the untrusted build
// (compile/startup_code_check, compile/runtime_interposition,
// compile/library_interposition).
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace parlab::grader {

struct ElfSection {
  std::string name;
  std::uint64_t type = 0;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::uint64_t link = 0;
};

enum class SymbolBinding { local, global, weak, other };

struct ElfSymbol {
  std::string name;
  SymbolBinding binding = SymbolBinding::local;
  bool defined = false;  // in a section of this file (or common), not an import
  bool indirect = false;  // STT_GNU_IFUNC: its resolver runs while the program is loaded
};

struct ElfObject {
  std::vector<ElfSection> sections;
  std::vector<ElfSymbol> symbols;  // of every SHT_SYMTAB and SHT_DYNSYM section
  std::vector<std::string> needed;  // a program's or library's DT_NEEDED libraries
};

// Throws std::runtime_error naming what is wrong when `bytes` is not such a file.
ElfObject parse_elf_object(const std::string& bytes);

// The bytes of the regular file at `path` (at most 256 MiB). Throws std::runtime_error.
std::string read_object_file(const std::filesystem::path& path);

}  // namespace parlab::grader
