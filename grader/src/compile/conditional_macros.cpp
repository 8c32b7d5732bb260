#include "compile/conditional_macros.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "compile/source_text.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

bool is_identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

struct Directive {
  int line = 0;
  std::string keyword;
  std::string rest;  // after the keyword, comments removed, continued lines joined
};

// Past the block comment that starts at text[i] ("/*"), counting its line breaks into
// `line`.
std::size_t skip_block_comment(std::string_view text, std::size_t i, int& line) {
  const std::size_t end = std::min(text.find("*/", i + 2), text.size());
  line += static_cast<int>(std::count(text.begin() + static_cast<std::ptrdiff_t>(i),
                                      text.begin() + static_cast<std::ptrdiff_t>(end), '\n'));
  return std::min(end + 2, text.size());
}

// Steps `i` past a line continuation or a comment that starts at text[i], counting line
// breaks into `line`; false when none starts there. A // comment stops before its break.
bool skip_continuation_or_comment(std::string_view text, std::size_t& i, int& line) {
  if (text.substr(i, 2) == "\\\n") {
    ++line;
    i += 2;
  } else if (text.substr(i, 2) == "//") {
    i = std::min(text.find('\n', i), text.size());
  } else if (text.substr(i, 2) == "/*") {
    i = skip_block_comment(text, i, line);
  } else {
    return false;
  }
  return true;
}

// Past a raw string literal whose opening quote is text[i] (R"delim( ... )delim"),
// counting the line breaks it holds into `line`.
std::size_t skip_raw_string(std::string_view text, std::size_t i, int& line) {
  const std::size_t open = text.find('(', i);
  if (open == std::string_view::npos) return text.size();
  const std::string close = ")" + std::string(text.substr(i + 1, open - i - 1)) + "\"";
  std::size_t end = text.find(close, open);
  end = end == std::string_view::npos ? text.size() : end + close.size();
  line += static_cast<int>(std::count(text.begin() + static_cast<std::ptrdiff_t>(i),
                                      text.begin() + static_cast<std::ptrdiff_t>(end), '\n'));
  return end;
}

// Reads the directive whose text starts at text[i] (just past its '#') up to its line's
// unescaped end; returns where that end is. `line` counts the continued lines.
std::size_t read_directive(std::string_view text, std::size_t i, int& line, std::string& out) {
  while (i < text.size() && text[i] != '\n') {
    if (skip_continuation_or_comment(text, i, line)) {
      out += ' ';
    } else if (text[i] == '"' || text[i] == '\'') {
      const std::size_t end = skip_quoted(text, i);
      out += text.substr(i, end - i);
      i = end;
    } else {
      out += text[i++];
    }
  }
  return i;
}

Directive split_directive(int line, const std::string& body) {
  std::size_t i = 0;
  while (i < body.size() && is_blank(body[i])) ++i;
  std::size_t end = i;
  while (end < body.size() && is_identifier_char(body[end])) ++end;
  return {line, body.substr(i, end - i), body.substr(end)};
}

// The directives of a file, each at the line its '#' stands on.
std::vector<Directive> directives_of(std::string_view text) {
  std::vector<Directive> out;
  int line = 1;
  bool line_start = true;  // only blanks and comments since the line began
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      line_start = true;
      ++i;
    } else if (skip_continuation_or_comment(text, i, line)) {
      continue;
    } else if (is_blank(c)) {
      ++i;
    } else if (c == '#' && line_start) {
      const int at = line;
      std::string body;
      i = read_directive(text, i + 1, line, body);
      out.push_back(split_directive(at, body));
      line_start = false;
    } else if (c == '"' && i > 0 && text[i - 1] == 'R') {
      i = skip_raw_string(text, i, line);
      line_start = false;
    } else if (c == '"' || c == '\'') {
      i = skip_quoted(text, i);
      line_start = false;
    } else {
      line_start = false;
      ++i;
    }
  }
  return out;
}

// The identifiers of a directive's text, literals and numbers skipped; `pastes` is set
// when it holds a `##`.
std::vector<std::string> identifiers_of(std::string_view text, bool& pastes) {
  std::vector<std::string> names;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '"' || c == '\'') {
      i = skip_quoted(text, i);
    } else if (c == '#' && i + 1 < text.size() && text[i + 1] == '#') {
      pastes = true;
      i += 2;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (i < text.size() && (is_identifier_char(text[i]) || text[i] == '.')) ++i;  // 1e5f, 0x1Fu
    } else if (is_identifier_start(c)) {
      std::size_t end = i;
      while (end < text.size() && is_identifier_char(text[end])) ++end;
      names.emplace_back(text.substr(i, end - i));
      i = end;
    } else {
      ++i;
    }
  }
  return names;
}

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
      std::ifstream in(it->path(), std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      for (const Directive& d : directives_of(text.str())) {
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
