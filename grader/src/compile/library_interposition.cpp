#include "compile/library_interposition.hpp"

#include <algorithm>
#include <cctype>
#include <system_error>

namespace parlab::grader {
namespace {

constexpr std::uintmax_t kLargestLibraryRead = std::uintmax_t{64} << 20;

bool starts_with_then_upper(const std::string& name, const std::string& prefix) {
  return name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0 &&
         std::isupper(static_cast<unsigned char>(name[prefix.size()]));
}

}  // namespace

std::set<std::string> names_libraries_define(const ElfObject& program,
                                             const std::vector<std::filesystem::path>& search_dirs) {
  std::set<std::string> names;
  for (const std::string& library : program.needed) {
    if (library.find('/') != std::string::npos) continue;  // a path is not a search name
    for (const std::filesystem::path& dir : search_dirs) {
      std::error_code ec;
      const std::filesystem::path path = dir / library;
      const std::uintmax_t size = std::filesystem::file_size(path, ec);
      if (ec) continue;
      if (size <= kLargestLibraryRead) {
        for (const ElfSymbol& s : parse_elf_object(read_object_file(std::filesystem::canonical(path))).symbols) {
          if (s.defined && s.binding != SymbolBinding::local) names.insert(s.name);
        }
      }
      break;
    }
  }
  return names;
}

bool is_cuda_library_name(const std::string& name) {
  return starts_with_then_upper(name, "cuda") || starts_with_then_upper(name, "cu") ||
         starts_with_then_upper(name, "nvml") || starts_with_then_upper(name, "cublas") ||
         name.rfind("__cuda", 0) == 0;
}

std::vector<std::string> library_interposing_definitions(const ElfObject& object,
                                                         const std::set<std::string>& library_names,
                                                         std::size_t limit) {
  std::vector<std::string> found;
  for (const ElfSymbol& s : object.symbols) {
    if (!s.defined || s.binding == SymbolBinding::local) continue;
    if (s.name.rfind("_Z", 0) == 0) continue;  // C++ names: a library's would differ
    if (library_names.count(s.name) == 0 && !is_cuda_library_name(s.name)) continue;
    found.push_back(s.name);
  }
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  if (found.size() > limit) found.resize(limit);
  return found;
}

}  // namespace parlab::grader
