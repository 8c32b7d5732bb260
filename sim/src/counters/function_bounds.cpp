#include "counters/function_bounds.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

namespace parlab_sim::detail {

namespace {

template <class T>
bool read_at(std::string_view file, std::uint64_t offset, T& value) {
  if (offset > file.size() || file.size() - offset < sizeof(T)) return false;
  std::memcpy(&value, file.data() + offset, sizeof(T));
  return true;
}

struct ObjectFunctions {
  bool position_independent = false;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> extents;
};

std::mutex g_mutex;
std::map<std::string, ObjectFunctions> g_objects;

// The file mapped, not read: a run reads only its header and symbol tables, and copying
// the whole executable (1.5 MB, through a growing string) cost each run milliseconds.
ObjectFunctions load_object(const std::string& path) {
  ObjectFunctions object;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return object;
  struct stat info {};
  void* pages = MAP_FAILED;
  if (fstat(fd, &info) == 0 && info.st_size > 0) {
    pages = mmap(nullptr, static_cast<std::size_t>(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  }
  close(fd);
  if (pages == MAP_FAILED) return object;
  const std::string_view file(static_cast<const char*>(pages), static_cast<std::size_t>(info.st_size));
  Elf64_Ehdr header{};
  if (read_at(file, 0, header)) {
    object.position_independent = header.e_type == ET_DYN;
    object.extents = function_extents_in(file);
  }
  munmap(pages, file.size());
  return object;
}

}  // namespace

std::vector<std::pair<std::uint64_t, std::uint64_t>> function_extents_in(std::string_view file) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> extents;
  Elf64_Ehdr header{};
  if (!read_at(file, 0, header) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
      header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_shentsize != sizeof(Elf64_Shdr)) {
    return extents;
  }
  // The full symbol table where there is one, else the dynamic one.
  for (const Elf64_Word wanted : {SHT_SYMTAB, SHT_DYNSYM}) {
    for (unsigned i = 0; i < header.e_shnum; ++i) {
      Elf64_Shdr section{};
      if (!read_at(file, header.e_shoff + std::uint64_t{i} * sizeof(Elf64_Shdr), section)) break;
      if (section.sh_type != wanted || section.sh_entsize != sizeof(Elf64_Sym)) continue;
      const std::uint64_t count = section.sh_size / sizeof(Elf64_Sym);
      for (std::uint64_t k = 0; k < count; ++k) {
        Elf64_Sym symbol{};
        if (!read_at(file, section.sh_offset + k * sizeof(Elf64_Sym), symbol)) break;
        if (ELF64_ST_TYPE(symbol.st_info) != STT_FUNC || symbol.st_size == 0) continue;
        extents.emplace_back(symbol.st_value, symbol.st_value + symbol.st_size);
      }
    }
    if (!extents.empty()) break;
  }
  std::sort(extents.begin(), extents.end());
  return extents;
}

std::optional<std::uintptr_t> function_end_of(const void* address) {
  Dl_info info{};
  if (dladdr(address, &info) == 0 || info.dli_fbase == nullptr) return std::nullopt;
  std::string path = info.dli_fname != nullptr ? info.dli_fname : "";
  Dl_info mine{};  // the executable itself (this runtime is linked into it)
  if (dladdr(reinterpret_cast<const void*>(&function_end_of), &mine) != 0 &&
      mine.dli_fbase == info.dli_fbase) {
    path = "/proc/self/exe";
  }
  std::lock_guard lock(g_mutex);
  auto it = g_objects.find(path);
  if (it == g_objects.end()) it = g_objects.emplace(path, load_object(path)).first;
  const ObjectFunctions& object = it->second;
  const std::uintptr_t base =
      object.position_independent ? reinterpret_cast<std::uintptr_t>(info.dli_fbase) : 0;
  const std::uint64_t offset = reinterpret_cast<std::uintptr_t>(address) - base;
  // The last function starting at or before the address, if it reaches past it.
  auto after = std::upper_bound(object.extents.begin(), object.extents.end(),
                                std::make_pair(offset, ~std::uint64_t{0}));
  while (after != object.extents.begin()) {
    --after;
    if (after->second > offset) return base + after->second;
    if (after->first + (std::uint64_t{1} << 20) < offset) break;  // no nested function that far back
  }
  return std::nullopt;
}

}  // namespace parlab_sim::detail
