#include "compile/directive_lines.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

#include "compile/source_text.hpp"

namespace parlab::grader {
namespace {

bool is_identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// The text with its lines spliced, and the file's line each of its lines starts on.
struct Spliced {
  std::string text;
  std::vector<int> first_line;
};

Spliced splice_lines(std::string_view text) {
  Spliced out;
  out.text.reserve(text.size());
  out.first_line.push_back(1);
  int line = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\') {  // a backslash, blanks (g++ allows them), then a line break
      std::size_t j = i + 1;
      while (j < text.size() && is_blank(text[j])) ++j;
      if (j < text.size() && text[j] == '\n') {
        ++line;
        i = j;
        continue;
      }
    }
    out.text += text[i];
    if (text[i] == '\n') out.first_line.push_back(++line);
  }
  return out;
}

enum class Lexeme { blank, newline, comment, literal, number, identifier, punctuation };

std::size_t number_end(std::string_view t, std::size_t i) {
  for (++i; i < t.size(); ++i) {
    const char c = t[i];
    if ((c == '+' || c == '-') && std::string_view("eEpP").find(t[i - 1]) != std::string_view::npos) continue;
    if (c == '\'' && i + 1 < t.size() && is_identifier_char(t[i + 1])) {
      ++i;  // a digit separator and what follows it
      continue;
    }
    if (!is_identifier_char(c) && c != '.') break;
  }
  return i;
}

// Past a raw string literal whose opening quote is t[i] (R"delim( ... )delim"); an
// ordinary literal where the delimiter is not a raw one.
std::size_t raw_string_end(std::string_view t, std::size_t i) {
  const std::size_t open = t.find('(', i);
  const std::string_view delimiter = t.substr(i + 1, open == std::string_view::npos ? 0 : open - i - 1);
  if (open == std::string_view::npos || delimiter.size() > 16 ||
      delimiter.find_first_of(" \\)\t\n\v\f\"") != std::string_view::npos) {
    return skip_quoted(t, i);
  }
  const std::string close = ")" + std::string(delimiter) + "\"";
  const std::size_t end = t.find(close, open);
  return end == std::string_view::npos ? t.size() : end + close.size();
}

std::size_t identifier_end(std::string_view t, std::size_t i) {
  while (i < t.size() && is_identifier_char(t[i])) ++i;
  return i;
}

// The lexeme that starts at t[i]: what it is, and where it ends.
std::pair<Lexeme, std::size_t> lex(std::string_view t, std::size_t i) {
  const char c = t[i];
  if (c == '\n') return {Lexeme::newline, i + 1};
  if (is_blank(c)) return {Lexeme::blank, i + 1};
  if (t.substr(i, 2) == "//") return {Lexeme::comment, std::min(t.find('\n', i), t.size())};
  if (t.substr(i, 2) == "/*") return {Lexeme::comment, std::min(t.find("*/", i + 2), t.size() - 2) + 2};
  if (is_identifier_start(c)) {
    const std::size_t end = identifier_end(t, i);
    const std::string_view id = t.substr(i, end - i);
    const bool raw = id == "R" || id == "u8R" || id == "uR" || id == "UR" || id == "LR";
    if (raw && end < t.size() && t[end] == '"') return {Lexeme::literal, raw_string_end(t, end)};
    return {Lexeme::identifier, end};
  }
  if (is_digit(c) || (c == '.' && i + 1 < t.size() && is_digit(t[i + 1]))) return {Lexeme::number, number_end(t, i)};
  if (c == '"' || c == '\'') return {Lexeme::literal, skip_quoted(t, i)};
  return {Lexeme::punctuation, i + 1};
}

int breaks_in(std::string_view t, std::size_t from, std::size_t to) {
  return static_cast<int>(std::count(t.begin() + static_cast<std::ptrdiff_t>(from),
                                     t.begin() + static_cast<std::ptrdiff_t>(to), '\n'));
}

Directive split_directive(int line, const std::string& body) {
  std::size_t i = 0;
  while (i < body.size() && is_blank(body[i])) ++i;
  const std::size_t end = identifier_end(body, i);
  return {line, body.substr(i, end - i), body.substr(end)};
}

// Reads the directive whose text starts at t[i] (past its '#') to the end of its line,
// comments made blanks; returns where that end is. `spliced_line` counts line breaks
// inside its comments and literals.
std::size_t read_directive(std::string_view t, std::size_t i, int& spliced_line, std::string& body) {
  while (i < t.size() && t[i] != '\n') {
    const auto [kind, end] = lex(t, i);
    spliced_line += breaks_in(t, i, end);
    if (kind == Lexeme::comment) {
      body += ' ';
    } else {
      body.append(t.substr(i, end - i));
    }
    i = end;
  }
  return i;
}

}  // namespace

std::vector<Directive> directives_of(std::string_view text) {
  const Spliced spliced = splice_lines(text);
  const std::string_view t = spliced.text;
  std::vector<Directive> out;
  int line = 0;  // of the spliced text, from 0
  bool line_start = true;  // only blanks and comments since the line began
  std::size_t i = 0;
  while (i < t.size()) {
    const auto [kind, end] = lex(t, i);
    if (kind == Lexeme::newline) {
      ++line;
      line_start = true;
    } else if (kind != Lexeme::blank && kind != Lexeme::comment) {
      const bool first = std::exchange(line_start, false);
      if (first && (t[i] == '#' || t.substr(i, 2) == "%:")) {
        const int at = spliced.first_line[static_cast<std::size_t>(line)];
        std::string body;
        i = read_directive(t, i + (t[i] == '#' ? 1 : 2), line, body);
        out.push_back(split_directive(at, body));
        continue;
      }
    }
    line += kind == Lexeme::newline ? 0 : breaks_in(t, i, end);
    i = end;
  }
  return out;
}

std::vector<std::string> identifiers_of(std::string_view raw, bool& pastes) {
  const Spliced spliced = splice_lines(raw);  // a directive's text is already: no change
  const std::string_view text = spliced.text;
  std::vector<std::string> names;
  std::size_t i = 0;
  while (i < text.size()) {
    if (text.substr(i, 2) == "##" || text.substr(i, 4) == "%:%:") pastes = true;
    const auto [kind, end] = lex(text, i);
    if (kind == Lexeme::identifier) names.emplace_back(text.substr(i, end - i));
    i = end;
  }
  return names;
}

}  // namespace parlab::grader
