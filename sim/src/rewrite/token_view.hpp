#pragma once
// Navigation over the token list: text comparisons, bracket matching in both
// directions, adjacency (for `<<<` and `>>>`), and the source text between tokens.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "rewrite/lexer.hpp"

namespace parlab_sim::rewrite {

inline constexpr std::size_t kNone = static_cast<std::size_t>(-1);

class TokenView {
 public:
  TokenView(std::string_view source, const std::vector<Token>& tokens)
      : source_(source), tokens_(tokens) {}

  std::size_t size() const { return tokens_.size(); }
  const Token& operator[](std::size_t i) const { return tokens_[i]; }
  std::string_view source() const { return source_; }
  std::string_view text(std::size_t i) const { return token_text(source_, tokens_[i]); }
  bool is(std::size_t i, std::string_view text) const {
    return i < tokens_.size() && token_text(source_, tokens_[i]) == text;
  }
  bool is_identifier(std::size_t i) const {
    return i < tokens_.size() && tokens_[i].kind == TokenKind::identifier;
  }
  // Tokens i, i+1, i+2 are the character c three times with nothing in between.
  bool is_triple(std::size_t i, char c) const;
  // The source from the start of token `first` to the end of token `last`.
  std::string_view span(std::size_t first, std::size_t last) const {
    return source_.substr(tokens_[first].begin, tokens_[last].end - tokens_[first].begin);
  }
  // The matching bracket of an opening ( [ { at `open` (kNone if unbalanced).
  std::size_t match_forward(std::size_t open) const;
  // The matching opening bracket of a closing ) ] } at `close`.
  std::size_t match_backward(std::size_t close) const;
  // The matching `<` of a template argument list ending with `>` at `close`.
  std::size_t match_angle_backward(std::size_t close) const;

 private:
  std::string_view source_;
  const std::vector<Token>& tokens_;
};

// A replacement of source bytes [begin, end).
struct Edit {
  std::size_t begin;
  std::size_t end;
  std::string replacement;
};

// Applies non-overlapping edits (any order).
std::string apply_edits(std::string_view source, std::vector<Edit> edits);

// Pads `replacement` with line breaks so it spans as many lines as `original`: every
// later line keeps its number. Inside a directive the breaks are backslash-continued.
std::string with_same_line_count(std::string replacement, std::string_view original,
                                 bool in_directive);

std::string location(std::string_view file, int line);
// `file` as a C string literal, for #line directives.
std::string quoted(std::string_view file);

}  // namespace parlab_sim::rewrite
