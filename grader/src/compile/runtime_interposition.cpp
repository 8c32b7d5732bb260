#include "compile/runtime_interposition.hpp"

namespace parlab::grader {

RuntimeNames runtime_names_of(const ElfObject& runtime) {
  RuntimeNames names;
  std::set<std::string> defined;
  for (const ElfSymbol& s : runtime.symbols) {
    if (s.binding == SymbolBinding::local) continue;
    if (s.defined) {
      defined.insert(s.name);
      if (s.binding == SymbolBinding::weak) names.weak_definitions.insert(s.name);
    }
  }
  for (const ElfSymbol& s : runtime.symbols) {
    if (s.binding != SymbolBinding::local && !s.defined && !defined.count(s.name))
      names.imports.insert(s.name);
  }
  return names;
}

std::vector<std::string> interposing_definitions(const ElfObject& submission,
                                                 const RuntimeNames& runtime, std::size_t limit) {
  std::set<std::string> found;
  for (const ElfSymbol& s : submission.symbols) {
    if (!s.defined || s.binding == SymbolBinding::local) continue;
    const bool replaces_import = runtime.imports.count(s.name) != 0;
    const bool wins_over_inline_copy =
        s.binding != SymbolBinding::weak && runtime.weak_definitions.count(s.name) != 0;
    if (replaces_import || wins_over_inline_copy) found.insert(s.name);
    // memcpy, memmove, memset: a sim build's calls (and definitions) carry the runtime's
    // checked names (parlab_sim/checked_library_calls.hpp); said as the student wrote it.
    constexpr std::string_view kChecked = "parlab_sim_checked_";
    if (s.name.starts_with(kChecked)) found.insert(s.name.substr(kChecked.size()));
  }
  std::vector<std::string> out(found.begin(), found.end());
  if (out.size() > limit) out.resize(limit);
  return out;
}

}  // namespace parlab::grader
