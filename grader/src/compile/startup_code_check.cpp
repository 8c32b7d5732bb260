#include "compile/startup_code_check.hpp"

#include <algorithm>

#include "compile/elf_object.hpp"

namespace parlab::grader {
namespace {

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
    if (!runs_before_settings(section.name)) continue;
    // The instrumentation's own module constructor, alone in its section.
    if (checked_build && section.name == ".init_array.00099" && section.size == 8) continue;
    early.push_back(section.name);
  }
  return early;
}

std::vector<std::string> early_startup_sections(const std::filesystem::path& object) {
  return early_startup_sections_in(read_object_file(object));
}

}  // namespace parlab::grader
