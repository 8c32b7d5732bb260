#include "compile/unchecked_code.hpp"

#include <algorithm>
#include <cctype>

#include "compile/line_markers.hpp"
#include "compile/source_text.hpp"

namespace parlab::grader {
namespace {

bool is_identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool is_raw_string_prefix(std::string_view word) {
  return word == "R" || word == "LR" || word == "uR" || word == "UR" || word == "u8R";
}

bool is_assembly_keyword(std::string_view word) { return word == "asm" || word == "__asm__" || word == "__asm"; }

// Every spelling of GCC's attribute (and its older per-sanitizer forms) starts so, with
// or without the reserved underscores.
bool turns_instrumentation_off(std::string_view word) {
  while (word.starts_with("_")) word.remove_prefix(1);
  return word.starts_with("no_sanitize");
}

// Past a raw string whose `"` is at text[i]: R"delim( ... )delim".
std::size_t skip_raw(std::string_view text, std::size_t i) {
  const std::size_t open = text.find('(', i);
  if (open == std::string_view::npos) return text.size();
  const std::string closing = ")" + std::string(text.substr(i + 1, open - i - 1)) + "\"";
  const std::size_t end = text.find(closing, open);
  return end == std::string_view::npos ? text.size() : end + closing.size();
}

}  // namespace

std::optional<UncheckedCode> find_unchecked_code(std::string_view text, std::string_view student_prefix) {
  std::string file;
  int line = 1;
  bool line_start = true;
  std::size_t i = 0;
  while (i < text.size()) {
    if (line_start) {
      line_start = false;
      // A line that starts with '#' is a line marker (or a #pragma): never code.
      const std::size_t first = text.find_first_not_of(" \t", i);
      if (first != std::string_view::npos && text[first] == '#') {
        const std::size_t end = std::min(text.find('\n', first), text.size());
        int number = 0;
        line = read_line_marker(text.substr(first, end - first), number, file) ? number : line + 1;
        i = end + 1;
        line_start = true;
        continue;
      }
    }
    const char c = text[i];
    if (c == '\n') {
      ++line;
      ++i;
      line_start = true;
    } else if (c == '"' || c == '\'') {
      i = skip_quoted(text, i);
    } else if (is_identifier_start(c)) {
      std::size_t end = i;
      while (end < text.size() && is_identifier_char(text[end])) ++end;
      const std::string_view word = text.substr(i, end - i);
      if (end < text.size() && text[end] == '"' && is_raw_string_prefix(word)) {
        // R"(...)", u8R"x(...)x": a raw string's text, its line breaks counted.
        const std::size_t after = skip_raw(text, end);
        line += static_cast<int>(std::count(text.begin() + end, text.begin() + after, '\n'));
        i = after;
        continue;
      }
      const bool assembly = is_assembly_keyword(word);
      if ((assembly || turns_instrumentation_off(word)) && file.starts_with(student_prefix)) {
        return UncheckedCode{file, line, std::string(word), assembly};
      }
      i = end;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (i < text.size() && (is_identifier_char(text[i]) || text[i] == '.' || text[i] == '\'')) ++i;
    } else {
      ++i;
    }
  }
  return std::nullopt;
}

std::string unchecked_code_message(const UncheckedCode& found, const std::string& display_file) {
  const std::string where = display_file + ":" + std::to_string(found.line) + ": ";
  if (found.assembly) {
    return where + "inline assembly (" + found.token + ") in a file the simulator does not rewrite: " +
           "in sim mode your code runs on the CPU, and the simulator cannot check assembly (its " +
           "loads and stores would escape the race check and the counters). Put inline PTX in a " +
           ".cu or .cuh file (the tests that reach it are then left to a GPU), or write it in " +
           "CUDA C++.";
  }
  return where + "the attribute " + found.token + " turns off the instrumentation the simulator's " +
         "race check and counters rely on, so sim mode does not allow it (it means nothing to a " +
         "GPU). Remove it.";
}

}  // namespace parlab::grader
