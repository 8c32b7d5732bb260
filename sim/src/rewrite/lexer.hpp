#pragma once
// A C++ tokenizer just precise enough for the rewriter: it skips comments, string,
// character and raw string literals (so `<<<` inside them is never seen), keeps
// numbers with digit separators whole, marks preprocessor directive lines, and
// splits `<` and `>` into single characters so `<<<`, `>>>` and `>>` closing two
// template argument lists are all visible.
#include <cstddef>
#include <string_view>
#include <vector>

namespace parlab_sim::rewrite {

enum class TokenKind { identifier, number, literal, punctuator };

struct Token {
  TokenKind kind;
  std::size_t begin;  // offsets into the source
  std::size_t end;
  int line;           // 1-based line of the first character
  int directive;      // -1 outside preprocessor directives, else the directive's number
};

std::vector<Token> tokenize(std::string_view source);

inline std::string_view token_text(std::string_view source, const Token& token) {
  return source.substr(token.begin, token.end - token.begin);
}

}  // namespace parlab_sim::rewrite
