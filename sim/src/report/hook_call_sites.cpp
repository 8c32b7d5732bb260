#include "report/hook_call_sites.hpp"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <limits>

namespace parlab_sim::detail {

namespace {

constexpr unsigned char kCallRel32 = 0xE8;
constexpr std::size_t kCallBytes = 5;
constexpr std::uint64_t kPageBytes = 4096;

template <class T>
bool read_at(std::string_view file, std::uint64_t offset, T& value) {
  if (offset > file.size() || file.size() - offset < sizeof(T)) return false;
  std::memcpy(&value, file.data() + offset, sizeof(T));
  return true;
}

bool x86_64_elf(std::string_view file, Elf64_Ehdr& header) {
  return read_at(file, 0, header) && std::memcmp(header.e_ident, ELFMAG, SELFMAG) == 0 &&
         header.e_ident[EI_CLASS] == ELFCLASS64 && header.e_machine == EM_X86_64 &&
         header.e_shentsize == sizeof(Elf64_Shdr) && header.e_phentsize == sizeof(Elf64_Phdr);
}

bool is_hook_name(std::string_view name) {
  return name == "__sanitizer_cov_trace_pc" || name.rfind("__tsan_", 0) == 0;
}

// The name at `at` in the string table `strings` (an offset and a size in the file).
std::string_view name_at(std::string_view file, const Elf64_Shdr& strings, std::uint64_t at) {
  if (strings.sh_offset > file.size() || strings.sh_size > file.size() - strings.sh_offset ||
      at >= strings.sh_size) {
    return {};
  }
  const std::string_view table = file.substr(strings.sh_offset, strings.sh_size);
  const std::size_t end = table.find('\0', at);
  return end == std::string_view::npos ? std::string_view{} : table.substr(at, end - at);
}

// The addresses of the hooks the executable defines, from its full symbol table.
std::set<std::uint64_t> hook_addresses(std::string_view file, const Elf64_Ehdr& header) {
  std::set<std::uint64_t> hooks;
  for (unsigned i = 0; i < header.e_shnum; ++i) {
    Elf64_Shdr section{};
    if (!read_at(file, header.e_shoff + std::uint64_t{i} * sizeof(Elf64_Shdr), section)) break;
    if (section.sh_type != SHT_SYMTAB || section.sh_entsize != sizeof(Elf64_Sym)) continue;
    Elf64_Shdr strings{};
    if (!read_at(file, header.e_shoff + std::uint64_t{section.sh_link} * sizeof(Elf64_Shdr), strings)) continue;
    const std::uint64_t count = section.sh_size / sizeof(Elf64_Sym);
    for (std::uint64_t k = 0; k < count; ++k) {
      Elf64_Sym symbol{};
      if (!read_at(file, section.sh_offset + k * sizeof(Elf64_Sym), symbol)) break;
      if (ELF64_ST_TYPE(symbol.st_info) != STT_FUNC || symbol.st_shndx == SHN_UNDEF) continue;
      if (is_hook_name(name_at(file, strings, symbol.st_name))) hooks.insert(symbol.st_value);
    }
  }
  return hooks;
}

}  // namespace

std::vector<std::uint64_t> hook_call_returns_in(const unsigned char* code, std::size_t size,
                                                std::uint64_t address, const std::set<std::uint64_t>& hooks) {
  std::vector<std::uint64_t> returns;
  for (std::size_t at = 0; at + kCallBytes <= size; ++at) {
    if (code[at] != kCallRel32) continue;
    std::int32_t displacement = 0;
    std::memcpy(&displacement, code + at + 1, sizeof displacement);
    const std::uint64_t after = address + at + kCallBytes;
    if (hooks.count(after + static_cast<std::uint64_t>(static_cast<std::int64_t>(displacement))) != 0) {
      returns.push_back(after);
    }
  }
  return returns;
}

std::vector<std::uint64_t> hook_call_returns_of(std::string_view file) {
  std::vector<std::uint64_t> returns;
  Elf64_Ehdr header{};
  if (!x86_64_elf(file, header)) return returns;
  const std::set<std::uint64_t> hooks = hook_addresses(file, header);
  if (hooks.empty()) return returns;
  for (unsigned i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment{};
    if (!read_at(file, header.e_phoff + std::uint64_t{i} * sizeof(Elf64_Phdr), segment)) break;
    if (segment.p_type != PT_LOAD || (segment.p_flags & PF_X) == 0) continue;
    if (segment.p_offset > file.size() || segment.p_filesz > file.size() - segment.p_offset) continue;
    const auto* code = reinterpret_cast<const unsigned char*>(file.data() + segment.p_offset);
    const std::vector<std::uint64_t> found = hook_call_returns_in(code, segment.p_filesz, segment.p_vaddr, hooks);
    returns.insert(returns.end(), found.begin(), found.end());
  }
  std::sort(returns.begin(), returns.end());
  return returns;
}

std::uint64_t image_base_of(std::string_view file) {
  Elf64_Ehdr header{};
  if (!read_at(file, 0, header)) return 0;
  std::uint64_t lowest = std::numeric_limits<std::uint64_t>::max();
  for (unsigned i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment{};
    if (!read_at(file, header.e_phoff + std::uint64_t{i} * sizeof(Elf64_Phdr), segment)) break;
    if (segment.p_type == PT_LOAD) lowest = std::min(lowest, segment.p_vaddr);
  }
  return lowest == std::numeric_limits<std::uint64_t>::max() ? 0 : lowest & ~(kPageBytes - 1);
}

}  // namespace parlab_sim::detail
