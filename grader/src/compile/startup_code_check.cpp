#include "compile/startup_code_check.hpp"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace parlab::grader {
namespace {

constexpr std::uint64_t kMaxObjectBytes = 256ull << 20;

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

// The priority in a section name's numeric suffix: ".init_array.00101" runs at 101,
// ".ctors.65434" (counted down from 65535) at 101 too; -1 when there is none.
long priority_of(const std::string& name, const std::string& prefix, bool counted_down) {
  if (name.rfind(prefix, 0) != 0 || name.size() == prefix.size()) return -1;
  const std::string digits = name.substr(prefix.size());
  if (digits.size() > 5 || digits.find_first_not_of("0123456789") != std::string::npos) return -1;
  const long n = std::stol(digits);
  return counted_down ? 65535 - n : n;
}

bool runs_before_settings(const std::string& name) {
  if (name.rfind(".preinit_array", 0) == 0) return true;
  const long init = priority_of(name, ".init_array.", false);
  const long ctors = priority_of(name, ".ctors.", true);
  return (init >= 0 && init <= kSimSettingsPriority) || (ctors >= 0 && ctors <= kSimSettingsPriority);
}

struct Section {
  std::string name;
  std::uint64_t type = 0;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::uint64_t link = 0;
};

std::string string_at(const std::string& bytes, const Section& table, std::uint64_t at) {
  if (table.offset > bytes.size() || bytes.size() - table.offset < table.size || at >= table.size) {
    throw std::runtime_error("bad ELF string table");
  }
  const char* start = bytes.data() + table.offset + at;
  return std::string(start, strnlen(start, table.size - at));
}

// Whether the object calls __tsan_init: the check build's instrumented objects do, from
// their module constructor (.init_array.00099, one entry), which is where the simulator
// reads its settings.
bool instrumented(const std::string& bytes, const std::vector<Section>& sections) {
  constexpr std::uint64_t kSymtab = 2;
  for (const Section& symtab : sections) {
    if (symtab.type != kSymtab || symtab.link >= sections.size()) continue;
    if (symtab.offset > bytes.size() || bytes.size() - symtab.offset < symtab.size) {
      throw std::runtime_error("bad ELF symbol table");
    }
    for (std::uint64_t at = 0; at + 24 <= symtab.size; at += 24) {
      const std::uint64_t name = read_le(bytes, symtab.offset + at, 4);
      if (name != 0 && string_at(bytes, sections[symtab.link], name) == "__tsan_init") return true;
    }
  }
  return false;
}

}  // namespace

std::vector<std::string> early_startup_sections_in(const std::string& bytes) {
  if (bytes.size() < 64 || bytes.compare(0, 4, "\x7f" "ELF") != 0 || bytes[4] != 2 || bytes[5] != 1) {
    throw std::runtime_error("not a 64-bit little-endian ELF file");
  }
  const std::uint64_t section_table = read_le(bytes, 0x28, 8);
  const std::uint64_t entry_size = read_le(bytes, 0x3A, 2);
  const std::uint64_t count = read_le(bytes, 0x3C, 2);
  const std::uint64_t names_index = read_le(bytes, 0x3E, 2);
  if (count == 0) return {};
  if (entry_size < 64 || names_index >= count) throw std::runtime_error("bad ELF section table");
  auto header = [&](std::uint64_t index) { return section_table + index * entry_size; };
  std::vector<Section> sections(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    sections[i].type = read_le(bytes, header(i) + 0x04, 4);
    sections[i].offset = read_le(bytes, header(i) + 0x18, 8);
    sections[i].size = read_le(bytes, header(i) + 0x20, 8);
    sections[i].link = read_le(bytes, header(i) + 0x28, 4);
  }
  for (std::uint64_t i = 0; i < count; ++i) {
    sections[i].name = string_at(bytes, sections[names_index], read_le(bytes, header(i), 4));
  }
  const bool checked_build = instrumented(bytes, sections);
  std::vector<std::string> early;
  for (const Section& section : sections) {
    if (!runs_before_settings(section.name)) continue;
    // The instrumentation's own module constructor, alone in its section.
    if (checked_build && section.name == ".init_array.00099" && section.size == 8) continue;
    early.push_back(section.name);
  }
  return early;
}

std::vector<std::string> early_startup_sections(const std::filesystem::path& object) {
  if (!std::filesystem::is_regular_file(std::filesystem::symlink_status(object))) {
    throw std::runtime_error(object.string() + " is not a regular file");
  }
  const std::uintmax_t size = std::filesystem::file_size(object);
  if (size > kMaxObjectBytes) throw std::runtime_error(object.string() + " is too large");
  std::ifstream in(object, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + object.string());
  std::string bytes(static_cast<std::size_t>(size), '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(size));
  bytes.resize(static_cast<std::size_t>(in.gcount()));
  return early_startup_sections_in(bytes);
}

}  // namespace parlab::grader
