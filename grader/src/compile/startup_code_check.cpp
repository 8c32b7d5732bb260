#include "compile/startup_code_check.hpp"

#include <algorithm>

#include "compile/elf_object.hpp"

namespace parlab::grader {
namespace {

constexpr std::uint64_t kInitArrayType = 14;     // SHT_INIT_ARRAY
constexpr std::uint64_t kPreinitArrayType = 16;  // SHT_PREINIT_ARRAY

bool starts_with(const std::string& name, const std::string& prefix) { return name.rfind(prefix, 0) == 0; }

// A constructor section's priority, as the linker reads it (SORT_BY_INIT_PRIORITY: the
// whole numeric suffix, leading zeros and all): ".init_array.00101" and
// ".init_array.0000101" run at 101. -1 when the suffix is not a number the linker would
// sort as one: such a section runs at no place anyone can predict, so it counts as early.
long init_priority(const std::string& suffix) {
  if (suffix.empty() || suffix.find_first_not_of("0123456789") != std::string::npos) return -1;
  const std::string::size_type first = suffix.find_first_not_of('0');
  if (first == std::string::npos) return 0;
  if (suffix.size() - first > 5) return -1;  // past 65535: not a priority
  return std::stol(suffix.substr(first));
}

// Every way the loader runs an object's code before main, as a class rather than a list
// of spellings: .preinit_array; .init (code _init runs, before every constructor); any
// .ctors (g++ no longer emits them: only hand-made ones exist); .init_array.N unless N
// is a priority past the simulator's; and an init array by type under any other name
// (the linker puts such an orphan among the constructors).
bool runs_before_settings(const ElfSection& section) {
  const std::string& name = section.name;
  if (starts_with(name, ".preinit_array") || section.type == kPreinitArrayType) return true;
  if (name == ".init" || starts_with(name, ".init.") || starts_with(name, ".ctors")) return true;
  if (starts_with(name, ".init_array.")) {
    const long priority = init_priority(name.substr(std::string(".init_array.").size()));
    return priority < 0 || priority <= kSimSettingsPriority;
  }
  return section.type == kInitArrayType && name != ".init_array";
}

// Whether the object calls __tsan_init: the check build's instrumented objects do, from
// their module constructor (.init_array.00099, one entry), which is where the simulator
// reads its settings.
bool instrumented(const ElfObject& object) {
  return std::any_of(object.symbols.begin(), object.symbols.end(),
                     [](const ElfSymbol& s) { return s.name == "__tsan_init"; });
}

}  // namespace

std::vector<std::string> early_startup_sections_in(const std::string& bytes) {
  const ElfObject object = parse_elf_object(bytes);
  const bool checked_build = instrumented(object);
  std::vector<std::string> early;
  for (const ElfSection& section : object.sections) {
    if (!runs_before_settings(section)) continue;
    // The instrumentation's own module constructor, alone in its section.
    if (checked_build && section.name == ".init_array.00099" && section.size == 8) continue;
    early.push_back(section.name);
  }
  // An indirect function's resolver runs while the loader relocates the program, before
  // any constructor.
  for (const ElfSymbol& symbol : object.symbols) {
    if (symbol.indirect && symbol.defined) early.push_back("indirect function " + symbol.name);
  }
  return early;
}

std::vector<std::string> early_startup_sections(const std::filesystem::path& object) {
  return early_startup_sections_in(read_object_file(object));
}

}  // namespace parlab::grader
