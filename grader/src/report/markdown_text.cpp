#include "report/markdown_text.hpp"

#include <algorithm>
#include <cctype>

#include "report/untrusted_text.hpp"

namespace parlab::grader::markdown_text {
namespace {

bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || (c & 0x80) != 0;
}

}  // namespace

std::string md_escape(std::string_view raw) {
  const std::string text = untrusted_text::escape_controls(raw);
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '_':
        // Inside a word (file_mean) an underscore cannot start emphasis; leave it readable.
        if (i > 0 && i + 1 < text.size() && is_word_char(text[i - 1]) && is_word_char(text[i + 1])) {
          out += c;
          break;
        }
        [[fallthrough]];
      case '\\': case '`': case '*': case '[': case ']': case '|':
        out += '\\';
        out += c;
        break;
      default: out += c;
    }
  }
  return out;
}

// A table cell is one line.
std::string md_cell(std::string_view raw) {
  std::string out = md_escape(raw);
  std::replace(out.begin(), out.end(), '\n', ' ');
  return out;
}

// Inline code whose fence is longer than any backtick run inside, so it cannot end early.
std::string md_code(std::string_view raw) {
  std::string text = untrusted_text::escape_controls(raw);
  std::replace(text.begin(), text.end(), '\n', ' ');
  const std::string fence(untrusted_text::longest_backtick_run(text) + 1, '`');
  const bool pad = !text.empty() && (text.front() == '`' || text.back() == '`');
  return fence + (pad ? " " + text + " " : text) + fence;
}

// Submission text (messages, tails, compiler output) is fenced, never Markdown.
std::string md_code_block(std::string_view text) {
  return untrusted_text::markdown_code_block(text);
}

}  // namespace parlab::grader::markdown_text
