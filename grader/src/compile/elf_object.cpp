#include "compile/elf_object.hpp"

#include <cstring>
#include <fstream>
#include <stdexcept>

namespace parlab::grader {
namespace {

constexpr std::uint64_t kMaxObjectBytes = 256ull << 20;
constexpr std::uint64_t kSymtab = 2;
constexpr std::uint64_t kDynamic = 6;
constexpr std::uint64_t kDynsym = 11;
constexpr std::uint64_t kDynamicEntrySize = 16;  // Elf64_Dyn
constexpr std::uint64_t kNeeded = 1;  // DT_NEEDED
constexpr std::uint64_t kSymbolSize = 24;  // Elf64_Sym
constexpr unsigned kGnuIndirectFunction = 10;  // STT_GNU_IFUNC

std::uint64_t read_le(const std::string& bytes, std::uint64_t offset, unsigned size) {
  if (offset > bytes.size() || bytes.size() - offset < size) {
    throw std::runtime_error("truncated ELF file");
  }
  std::uint64_t value = 0;
  for (unsigned i = 0; i < size; ++i) {
    value |= std::uint64_t{static_cast<unsigned char>(bytes[offset + i])} << (8 * i);
  }
  return value;
}

void check_within(const std::string& bytes, const ElfSection& section, const char* what) {
  if (section.offset > bytes.size() || bytes.size() - section.offset < section.size) {
    throw std::runtime_error(std::string("bad ELF ") + what);
  }
}

std::string string_at(const std::string& bytes, const ElfSection& table, std::uint64_t at) {
  check_within(bytes, table, "string table");
  if (at >= table.size) throw std::runtime_error("bad ELF string table");
  const char* start = bytes.data() + table.offset + at;
  return std::string(start, strnlen(start, table.size - at));
}

SymbolBinding binding_of(unsigned info) {
  switch (info >> 4) {
    case 0: return SymbolBinding::local;
    case 1: return SymbolBinding::global;
    case 2: return SymbolBinding::weak;
    default: return SymbolBinding::other;
  }
}

}  // namespace

ElfObject parse_elf_object(const std::string& bytes) {
  if (bytes.size() < 64 || bytes.compare(0, 4, "\x7f" "ELF") != 0 || bytes[4] != 2 || bytes[5] != 1) {
    throw std::runtime_error("not a 64-bit little-endian ELF file");
  }
  ElfObject object;
  const std::uint64_t section_table = read_le(bytes, 0x28, 8);
  const std::uint64_t entry_size = read_le(bytes, 0x3A, 2);
  const std::uint64_t count = read_le(bytes, 0x3C, 2);
  const std::uint64_t names_index = read_le(bytes, 0x3E, 2);
  if (count == 0) return object;
  if (entry_size < 64 || names_index >= count) throw std::runtime_error("bad ELF section table");
  auto header = [&](std::uint64_t index) { return section_table + index * entry_size; };
  object.sections.resize(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    ElfSection& s = object.sections[i];
    s.type = read_le(bytes, header(i) + 0x04, 4);
    s.offset = read_le(bytes, header(i) + 0x18, 8);
    s.size = read_le(bytes, header(i) + 0x20, 8);
    s.link = read_le(bytes, header(i) + 0x28, 4);
  }
  for (std::uint64_t i = 0; i < count; ++i) {
    object.sections[i].name = string_at(bytes, object.sections[names_index], read_le(bytes, header(i), 4));
  }
  for (const ElfSection& symtab : object.sections) {
    if (symtab.type != kSymtab && symtab.type != kDynsym) continue;
    if (symtab.link >= object.sections.size()) throw std::runtime_error("bad ELF symbol table");
    check_within(bytes, symtab, "symbol table");
    for (std::uint64_t at = kSymbolSize; at + kSymbolSize <= symtab.size; at += kSymbolSize) {
      const std::uint64_t entry = symtab.offset + at;
      const std::uint64_t name = read_le(bytes, entry, 4);
      if (name == 0) continue;
      ElfSymbol symbol;
      symbol.name = string_at(bytes, object.sections[symtab.link], name);
      const unsigned info = static_cast<unsigned>(read_le(bytes, entry + 4, 1));
      symbol.binding = binding_of(info);
      symbol.indirect = (info & 0xf) == kGnuIndirectFunction;
      symbol.defined = read_le(bytes, entry + 6, 2) != 0;  // SHN_UNDEF is 0
      object.symbols.push_back(std::move(symbol));
    }
  }
  for (const ElfSection& dynamic : object.sections) {
    if (dynamic.type != kDynamic) continue;
    if (dynamic.link >= object.sections.size()) throw std::runtime_error("bad ELF dynamic section");
    check_within(bytes, dynamic, "dynamic section");
    for (std::uint64_t at = 0; at + kDynamicEntrySize <= dynamic.size; at += kDynamicEntrySize) {
      if (read_le(bytes, dynamic.offset + at, 8) != kNeeded) continue;
      object.needed.push_back(
          string_at(bytes, object.sections[dynamic.link], read_le(bytes, dynamic.offset + at + 8, 8)));
    }
  }
  return object;
}

std::string read_object_file(const std::filesystem::path& path) {
  if (!std::filesystem::is_regular_file(std::filesystem::symlink_status(path))) {
    throw std::runtime_error(path.string() + " is not a regular file");
  }
  const std::uintmax_t size = std::filesystem::file_size(path);
  if (size > kMaxObjectBytes) throw std::runtime_error(path.string() + " is too large");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::string bytes(static_cast<std::size_t>(size), '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(size));
  bytes.resize(static_cast<std::size_t>(in.gcount()));
  return bytes;
}

}  // namespace parlab::grader
