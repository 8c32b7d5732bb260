#include "compile/conditional_macros.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "compile/directive_lines.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

bool is_conditional(const std::string& keyword) {
  static const std::set<std::string> kConditionals = {"if", "elif", "ifdef", "ifndef", "elifdef", "elifndef"};
  return kConditionals.contains(keyword);
}

// What a student's macro reads: its definitions' identifiers (parameters too: harmless)
// and whether any pastes tokens.
struct MacroUse {
  std::set<std::string> reads;
  bool pastes = false;
};

void add_definition(const std::string& rest, std::map<std::string, MacroUse>& macros) {
  bool pastes = false;
  std::vector<std::string> names = identifiers_of(rest, pastes);
  if (names.empty()) return;
  MacroUse& use = macros[names.front()];
  use.reads.insert(names.begin() + 1, names.end());
  use.pastes = use.pastes || pastes;
}

// A name a conditional reads; `expanded` when the preprocessor replaces it by its
// definition (an #if's operand), not when it only asks whether it is defined (#ifdef's
// name, `defined X`): a student's CUDA_CHECK guarded by #ifndef reads nothing of its body.
struct Read {
  std::string name;
  bool expanded = true;
};

std::vector<Read> reads_of(const std::vector<std::string>& names, bool expands) {
  std::vector<Read> reads;
  bool operand = false;
  for (const std::string& name : names) {
    if (name == "defined") {
      operand = true;
      continue;
    }
    reads.push_back({name, expands && !operand});
    operand = false;
  }
  return reads;
}

struct Conditional {
  const SourceFile* file;
  int line;
  std::vector<Read> reads;
  bool pastes = false;
};

// The first name of `start`'s closure over the students' macros that is decided apart
// ("##" for a paste), or empty.
std::string first_apart(const std::vector<Read>& start, const std::map<std::string, MacroUse>& macros,
                        const DecidedApart& decided_apart) {
  std::vector<Read> pending(start.rbegin(), start.rend());
  std::set<std::string> expanded;
  while (!pending.empty()) {
    const Read read = pending.back();
    pending.pop_back();
    if (decided_apart(read.name, read.expanded)) return read.name;
    const auto it = macros.find(read.name);
    if (!read.expanded || it == macros.end() || !expanded.insert(read.name).second) continue;
    if (it->second.pastes) return "##";
    const std::vector<Read> body = reads_of({it->second.reads.begin(), it->second.reads.end()}, true);
    pending.insert(pending.end(), body.rbegin(), body.rend());
  }
  return "";
}

}  // namespace

std::optional<ConditionalRead> first_read_decided_apart(const std::vector<SourceFile>& files,
                                                        const DecidedApart& decided_apart) {
  std::vector<const SourceFile*> ordered;
  for (const SourceFile& f : files) ordered.push_back(&f);
  std::sort(ordered.begin(), ordered.end(), [](const SourceFile* a, const SourceFile* b) { return a->name < b->name; });
  std::map<std::string, MacroUse> macros;
  std::vector<Conditional> conditionals;
  for (const SourceFile* file : ordered) {
    for (const Directive& d : directives_of(file->text)) {
      if (d.keyword == "define") add_definition(d.rest, macros);
      if (!is_conditional(d.keyword)) continue;
      bool pastes = false;
      const std::vector<std::string> names = identifiers_of(d.rest, pastes);
      const bool expands = d.keyword == "if" || d.keyword == "elif";
      conditionals.push_back({file, d.line, reads_of(names, expands), pastes});
    }
  }
  for (const Conditional& c : conditionals) {
    if (c.pastes) return ConditionalRead{c.file->name, c.line, "##"};
    if (std::string name = first_apart(c.reads, macros, decided_apart); !name.empty()) {
      return ConditionalRead{c.file->name, c.line, std::move(name)};
    }
  }
  return std::nullopt;
}

std::vector<std::string> macros_defined_under(const std::vector<fs::path>& dirs) {
  std::set<std::string> names;
  for (const fs::path& dir : dirs) {
    std::error_code error;
    for (fs::recursive_directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
      if (!it->is_regular_file()) continue;
      for (const Directive& d : directives_of(read_whole_file(it->path()).value_or(""))) {
        bool pastes = false;
        const std::vector<std::string> ids = d.keyword == "define" ? identifiers_of(d.rest, pastes)
                                                                    : std::vector<std::string>{};
        if (!ids.empty()) names.insert(ids.front());
      }
    }
  }
  return {names.begin(), names.end()};
}

}  // namespace parlab::grader
