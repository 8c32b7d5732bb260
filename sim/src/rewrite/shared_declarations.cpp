#include "rewrite/shared_declarations.hpp"

#include <set>

namespace parlab_sim::rewrite {
namespace {

bool is_alignment_attribute(std::string_view word) {
  return word == "__align__" || word == "alignas" || word == "__attribute__" ||
         word == "__declspec" || word == "__builtin_align__";
}

bool is_specifier(std::string_view word) {
  return word == "extern" || word == "static" || word == "volatile" || word == "const" ||
         word == "__device__";
}

// Whether the `{` at `open` starts a function body (or a lambda body).
bool opens_function_body(const TokenView& t, std::size_t open) {
  if (open == 0) return false;
  std::size_t before = open - 1;
  while (before > 0 && t[before].directive >= 0) --before;
  static constexpr std::string_view kAfterParameters[] = {")", "]", "const", "noexcept",
                                                          "override", "final", "mutable"};
  for (std::string_view word : kAfterParameters) {
    if (t.is(before, word)) return true;
  }
  return false;
}

// Whether token `i` may stand in a declaration's specifiers before __shared__: a
// specifier, a type's name (`float`, `unsigned int`, `ns::T`) or `::`. nvcc takes the
// specifiers in any order (`extern float __shared__ s[];`), so the run reaches back over
// the type as well.
bool in_specifier_run(const TokenView& t, std::size_t i) {
  return t.is_identifier(i) || t.is(i, "::");
}

// First token of the declaration-specifier run that ends at `shared` (exclusive):
// specifiers, type names, template arguments and alignment attributes.
std::size_t specifiers_begin(const TokenView& t, std::size_t shared) {
  std::size_t begin = shared;
  while (begin > 0) {
    const std::size_t previous = begin - 1;
    if (t[previous].directive >= 0) break;
    if (in_specifier_run(t, previous)) {
      begin = previous;
    } else if (t.is(previous, ">")) {
      const std::size_t open = t.match_angle_backward(previous);
      if (open == kNone || open == 0 || !t.is_identifier(open - 1)) break;
      begin = open - 1;
    } else if (t.is(previous, ")")) {
      const std::size_t open = t.match_backward(previous);
      if (open == kNone || open == 0 || !is_alignment_attribute(t.text(open - 1))) break;
      begin = open - 1;
    } else {
      break;
    }
  }
  return begin;
}

// Whether the declaration [begin, end) says `extern` (anywhere among its specifiers:
// before __shared__, after it or after the type).
bool declares_extern(const TokenView& t, std::size_t begin, std::size_t end) {
  for (std::size_t k = begin; k < end; ++k) {
    if (t.is(k, "extern")) return true;
  }
  return false;
}

// The end of an `extern __shared__` declarator: `end` (the `;`), or the start of an
// alignment attribute written after the brackets (`s[] __align__(16);`).
std::size_t declarator_end(const TokenView& t, std::size_t end) {
  if (end == 0 || !t.is(end - 1, ")")) return end;
  const std::size_t open = t.match_backward(end - 1);
  if (open == kNone || open == 0 || !is_alignment_attribute(t.text(open - 1))) return end;
  return open - 1;
}

// The `;` ending the declaration that starts after `shared`.
std::size_t declaration_end(const TokenView& t, std::size_t shared) {
  for (std::size_t i = shared + 1; i < t.size(); ++i) {
    if (t[i].directive >= 0) return kNone;
    if (t.is(i, ";")) return i;
    if (t.is(i, "(") || t.is(i, "[")) {
      i = t.match_forward(i);
      if (i == kNone) return kNone;
    } else if (t.is(i, "{") || t.is(i, "}")) {
      return kNone;
    }
  }
  return kNone;
}

// Skips the alignment attribute starting at identifier `i`: returns the index after it.
std::size_t skip_attribute(const TokenView& t, std::size_t i) {
  if (!t.is(i + 1, "(")) return i + 1;
  const std::size_t close = t.match_forward(i + 1);
  return close == kNone ? i + 1 : close + 1;
}

// The type of `extern __shared__ TYPE name[];` from the tokens other than specifiers and
// attributes, with the source's spacing.
std::string type_text(const TokenView& t, std::size_t first, std::size_t name) {
  std::string text;
  std::size_t previous = kNone;
  for (std::size_t i = first; i < name;) {
    if (t.is_identifier(i) && is_alignment_attribute(t.text(i))) {
      i = skip_attribute(t, i);
      continue;
    }
    if ((t.is(i, "extern") || t.is(i, "static") || t.is(i, "__shared__") || t.is(i, "__device__"))) {
      ++i;
      continue;
    }
    if (previous != kNone && t[i].begin != t[previous].end) text += ' ';
    text += t.text(i);
    previous = i;
    ++i;
  }
  return text;
}

std::string blank(std::string_view original) {
  std::string spaces;
  for (const char c : original) spaces += (c == '\n') ? '\n' : ' ';
  return spaces;
}

}  // namespace

std::vector<std::string> declared_names(const TokenView& t, std::size_t first, std::size_t last) {
  std::vector<std::string> names;
  int angle_depth = 0;
  bool declarator_done = false;  // past the name: in its array bounds or initializer
  std::string candidate;
  for (std::size_t i = first; i <= last; ++i) {
    if (i == last || (angle_depth == 0 && t.is(i, ","))) {
      if (!candidate.empty()) names.push_back(candidate);
      candidate.clear();
      declarator_done = false;
      continue;
    }
    if (t.is(i, "(") || t.is(i, "[") || t.is(i, "{")) {
      if (angle_depth == 0 && !t.is(i, "(")) declarator_done = true;
      const std::size_t close = t.match_forward(i);
      if (close == kNone || close >= last) break;
      i = close;
      continue;
    }
    if (t.is(i, "=") && angle_depth == 0) declarator_done = true;
    if (t.is(i, "<")) ++angle_depth;
    if (t.is(i, ">") && angle_depth > 0) --angle_depth;
    // An identifier followed by ( is an attribute or macro such as __align__(16).
    if (angle_depth == 0 && !declarator_done && t.is_identifier(i) && !is_specifier(t.text(i)) &&
        !t.is(i + 1, "(")) {
      candidate = std::string(t.text(i));
    }
  }
  return names;
}

void rewrite_shared_declarations(const TokenView& t, std::string_view file,
                                 std::vector<Edit>& edits, std::vector<std::string>& errors) {
  std::vector<bool> scopes;  // one per open brace: inside a function body?
  std::set<std::string> file_scope_dynamic_names;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i].directive >= 0) continue;
    if (t.is(i, "{")) {
      scopes.push_back((!scopes.empty() && scopes.back()) || opens_function_body(t, i));
      continue;
    }
    if (t.is(i, "}")) {
      if (!scopes.empty()) scopes.pop_back();
      continue;
    }
    if (!t.is(i, "__shared__")) continue;

    const bool in_function = !scopes.empty() && scopes.back();
    const std::size_t begin = specifiers_begin(t, i);
    const std::size_t end = declaration_end(t, i);
    if (end == kNone) {
      errors.push_back(location(file, t[i].line) + ": cannot find the end (;) of this __shared__ declaration");
      continue;
    }
    if (declares_extern(t, begin, end)) {
      const std::size_t close = declarator_end(t, end);
      const bool shape_ok = close >= 3 && t.is(close - 1, "]") && t.is(close - 2, "[") &&
                            t.is_identifier(close - 3) && close - 3 > begin &&
                            !t.is(close - 3, "__shared__");
      if (!shape_ok) {
        errors.push_back(location(file, t[i].line) +
                         ": unsupported extern __shared__ declaration; write "
                         "`extern __shared__ T name[];`");
        i = end;
        continue;
      }
      const std::string name(t.text(close - 3));
      const std::string type = type_text(t, begin, close - 3);
      const std::string buffer =
          "static_cast<" + type + "*>(::parlab_sim::dynamic_shared_memory(\"" + name + "\"))";
      const std::string_view original = t.span(begin, end);
      if (!in_function) {
        file_scope_dynamic_names.insert(name);
        edits.push_back(Edit{t[begin].begin, t[end].end,
                             blank(original) + "\n#define " + name + " (" + buffer + ")\n#line " +
                                 std::to_string(t[end].line) + " " + quoted(file) + "\n"});
      } else if (file_scope_dynamic_names.count(name) != 0) {
        edits.push_back(Edit{t[begin].begin, t[end].end, blank(original)});
      } else {
        edits.push_back(Edit{t[begin].begin, t[end].end,
                             with_same_line_count(type + "* const " + name + " = " + buffer + ";",
                                                  original, false)});
      }
      i = end;
      continue;
    }

    // __shared__ supplies `static`: a `static` before it, after it or after the type goes.
    for (std::size_t k = begin; k < end; ++k) {
      if (t.is(k, "static")) edits.push_back(Edit{t[k].begin, t[k].end, "      "});
    }
    if (in_function) {
      const std::vector<std::string> names = declared_names(t, i + 1, end);
      if (names.empty()) {
        errors.push_back(location(file, t[i].line) + ": cannot find the name declared by this __shared__ declaration");
      } else {
        std::string variables;
        for (const std::string& name : names) {
          variables += (variables.empty() ? "PARLAB_SIM_SHARED_VAR(" : ", PARLAB_SIM_SHARED_VAR(") + name + ")";
        }
        edits.push_back(Edit{t[end].end, t[end].end, " PARLAB_SIM_STATIC_SHARED_VARS(" + variables + ");"});
      }
    }
    i = end;
  }
}

}  // namespace parlab_sim::rewrite
