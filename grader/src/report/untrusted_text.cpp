#include "report/untrusted_text.hpp"

#include <algorithm>
#include <cstdio>

namespace parlab::grader::untrusted_text {
namespace {

std::string hex_escape(const char* format, unsigned value) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

// The code point of a well-formed sequence of `n` bytes.
unsigned code_point(std::string_view s, std::size_t n) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned>(static_cast<unsigned char>(s[i])); };
  if (n == 1) return byte(0);
  if (n == 2) return ((byte(0) & 0x1Fu) << 6) | (byte(1) & 0x3Fu);
  if (n == 3) return ((byte(0) & 0x0Fu) << 12) | ((byte(1) & 0x3Fu) << 6) | (byte(2) & 0x3Fu);
  return ((byte(0) & 0x07u) << 18) | ((byte(1) & 0x3Fu) << 12) | ((byte(2) & 0x3Fu) << 6) | (byte(3) & 0x3Fu);
}

// Bidirectional formatting characters: they reorder what a reader sees (a
// right-to-left override makes "60/60 ssap" read as something else, "Trojan Source").
bool is_bidi_control(unsigned cp) {
  return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

std::string escape(std::string_view text, bool keep_line_breaks) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const std::size_t n = utf8_sequence_length(text);
    const auto c = static_cast<unsigned char>(text[0]);
    if (n == 0) {
      out += hex_escape("\\x%02x", c);
      text.remove_prefix(1);
      continue;
    }
    if (n == 2 && c == 0xC2 && static_cast<unsigned char>(text[1]) <= 0x9F) {
      out += hex_escape("\\u%04x", static_cast<unsigned char>(text[1]));  // C1 control
    } else if (n > 1 && is_bidi_control(code_point(text, n))) {
      out += hex_escape("\\u%04x", code_point(text, n));
    } else if (n > 1) {
      out += text.substr(0, n);
    } else if (c == '\r' && text.size() > 1 && text[1] == '\n' && keep_line_breaks) {
      // CRLF -> LF: the LF comes next
    } else if (c == '\n') {
      out += keep_line_breaks ? "\n" : "\\n";
    } else if (c == '\t') {
      out += keep_line_breaks ? "\t" : "\\t";
    } else if (c < 0x20 || c == 0x7F) {
      out += hex_escape("\\x%02x", c);
    } else {
      out += static_cast<char>(c);
    }
    text.remove_prefix(n);
  }
  return out;
}

}  // namespace

std::string escape_controls(std::string_view text) { return escape(text, true); }

std::string escape_line(std::string_view text) { return escape(text, false); }

std::size_t longest_backtick_run(std::string_view text) {
  std::size_t longest = 0;
  std::size_t run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

std::string markdown_code_block(std::string_view text) {
  std::string body = escape_controls(text);
  while (!body.empty() && body.back() == '\n') body.pop_back();
  const std::string fence(std::max<std::size_t>(3, longest_backtick_run(body) + 1), '`');
  return fence + "text\n" + body + "\n" + fence + "\n";
}

std::string xml_legal(std::string_view escaped) {
  std::string out;
  out.reserve(escaped.size());
  for (std::size_t i = 0; i < escaped.size(); ++i) {
    const auto c = static_cast<unsigned char>(escaped[i]);
    if (c == 0xEF && i + 2 < escaped.size() && static_cast<unsigned char>(escaped[i + 1]) == 0xBF &&
        static_cast<unsigned char>(escaped[i + 2]) >= 0xBE) {
      out += escaped[i + 2] == '\xBE' ? "\\ufffe" : "\\uffff";
      i += 2;
      continue;
    }
    out += static_cast<char>(c);
  }
  return out;
}

std::size_t utf8_sequence_length(std::string_view s) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const auto continuation = [&](std::size_t i) { return i < s.size() && (byte(i) & 0xC0) == 0x80; };
  const unsigned char b0 = byte(0);
  if (b0 < 0x80) return 1;
  if (b0 >= 0xC2 && b0 <= 0xDF) return continuation(1) ? 2 : 0;
  if (b0 >= 0xE0 && b0 <= 0xEF) {
    if (!continuation(1) || !continuation(2)) return 0;
    if (b0 == 0xE0 && byte(1) < 0xA0) return 0;  // overlong
    if (b0 == 0xED && byte(1) > 0x9F) return 0;  // UTF-16 surrogate
    return 3;
  }
  if (b0 >= 0xF0 && b0 <= 0xF4) {
    if (!continuation(1) || !continuation(2) || !continuation(3)) return 0;
    if (b0 == 0xF0 && byte(1) < 0x90) return 0;  // overlong
    if (b0 == 0xF4 && byte(1) > 0x8F) return 0;  // past U+10FFFF
    return 4;
  }
  return 0;
}

}  // namespace parlab::grader::untrusted_text
