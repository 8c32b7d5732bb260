#include "compile/source_text.hpp"

namespace parlab::grader {

std::size_t skip_quoted(std::string_view text, std::size_t i) {
  const char quote = text[i];
  for (++i; i < text.size() && text[i] != '\n'; ++i) {
    if (text[i] == quote) return i + 1;
    if (text[i] == '\\') ++i;
  }
  return i;
}

}  // namespace parlab::grader
