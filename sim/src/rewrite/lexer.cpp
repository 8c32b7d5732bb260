#include "rewrite/lexer.hpp"

#include <cctype>
#include <string>

namespace parlab_sim::rewrite {
namespace {

bool is_identifier_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$' ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool is_identifier_char(char c) {
  return is_identifier_start(c) || std::isdigit(static_cast<unsigned char>(c)) != 0;
}

class Lexer {
 public:
  explicit Lexer(std::string_view source) : s_(source) {}

  std::vector<Token> run() {
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      token_line_ = line_;
      if (c == '\n') {
        newline();
        ++pos_;
      } else if (c == '\\' && peek(1) == '\n') {
        pos_ += 2;  // line continuation: the directive (if any) goes on
        ++line_;
      } else if (c == '\\' && peek(1) == '\r' && peek(2) == '\n') {
        pos_ += 3;
        ++line_;
      } else if (std::isspace(static_cast<unsigned char>(c)) != 0) {
        ++pos_;
      } else if (c == '/' && peek(1) == '/') {
        skip_line_comment();
      } else if (c == '/' && peek(1) == '*') {
        skip_block_comment();
      } else if (c == '#' && at_line_start_) {
        directive_ = ++directive_count_;
        emit(TokenKind::punctuator, pos_, pos_ + 1);
      } else if (is_identifier_start(c)) {
        lex_identifier_or_prefixed_literal();
      } else if (std::isdigit(static_cast<unsigned char>(c)) != 0 ||
                 (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))) != 0)) {
        lex_number();
      } else if (c == '"' || c == '\'') {
        const std::size_t start = pos_;
        skip_quoted(c);
        emit(TokenKind::literal, start, pos_);
      } else {
        lex_punctuator();
      }
    }
    return std::move(tokens_);
  }

 private:
  char peek(std::size_t ahead) const {
    return pos_ + ahead < s_.size() ? s_[pos_ + ahead] : '\0';
  }

  void newline() {
    ++line_;
    at_line_start_ = true;
    directive_ = -1;
  }

  void emit(TokenKind kind, std::size_t begin, std::size_t end) {
    tokens_.push_back(Token{kind, begin, end, token_line_, directive_});
    at_line_start_ = false;
  }

  void skip_line_comment() {
    while (pos_ < s_.size() && s_[pos_] != '\n') {
      if (s_[pos_] == '\\' && peek(1) == '\n') {  // a continued // comment goes on
        pos_ += 2;
        ++line_;
        continue;
      }
      ++pos_;
    }
  }

  void skip_block_comment() {
    pos_ += 2;
    while (pos_ < s_.size() && !(s_[pos_] == '*' && peek(1) == '/')) {
      if (s_[pos_] == '\n') ++line_;  // a comment does not end a directive
      ++pos_;
    }
    pos_ = pos_ < s_.size() ? pos_ + 2 : pos_;
  }

  void skip_quoted(char quote) {
    ++pos_;
    while (pos_ < s_.size() && s_[pos_] != quote && s_[pos_] != '\n') {
      if (s_[pos_] == '\\' && pos_ + 1 < s_.size()) {
        if (s_[pos_ + 1] == '\n') ++line_;
        ++pos_;
      }
      ++pos_;
    }
    if (pos_ < s_.size() && s_[pos_] == quote) ++pos_;
  }

  void skip_raw_string() {
    // R"delim( ... )delim"
    const std::size_t open = s_.find('(', pos_);
    if (open == std::string_view::npos) {
      pos_ = s_.size();
      return;
    }
    std::string closing(1, ')');
    closing.append(s_.substr(pos_ + 1, open - pos_ - 1));
    closing.push_back('"');
    const std::size_t close = s_.find(closing, open + 1);
    const std::size_t end = close == std::string_view::npos ? s_.size() : close + closing.size();
    for (std::size_t i = pos_; i < end; ++i) {
      if (s_[i] == '\n') ++line_;
    }
    pos_ = end;
  }

  void lex_identifier_or_prefixed_literal() {
    const std::size_t start = pos_;
    while (pos_ < s_.size() && is_identifier_char(s_[pos_])) ++pos_;
    const std::string_view word = s_.substr(start, pos_ - start);
    const char next = pos_ < s_.size() ? s_[pos_] : '\0';
    const bool raw_prefix = word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR";
    const bool prefix = word == "u8" || word == "u" || word == "U" || word == "L";
    if (raw_prefix && next == '"') {
      skip_raw_string();
      emit(TokenKind::literal, start, pos_);
    } else if (prefix && (next == '"' || next == '\'')) {
      skip_quoted(next);
      emit(TokenKind::literal, start, pos_);
    } else {
      emit(TokenKind::identifier, start, pos_);
    }
  }

  void lex_number() {
    const std::size_t start = pos_;
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      const char previous = pos_ > start ? s_[pos_ - 1] : '\0';
      if ((c == '+' || c == '-') && (previous == 'e' || previous == 'E' || previous == 'p' ||
                                     previous == 'P')) {
        ++pos_;
      } else if (c == '\'' && is_identifier_char(peek(1))) {
        pos_ += 2;  // digit separator: 1'000'000
      } else if (is_identifier_char(c) || c == '.') {
        ++pos_;
      } else {
        break;
      }
    }
    emit(TokenKind::number, start, pos_);
  }

  void lex_punctuator() {
    static constexpr std::string_view kCompound[] = {"->", "::", "<=", ">=", "==", "!="};
    for (std::string_view compound : kCompound) {
      if (s_.substr(pos_, compound.size()) == compound) {
        emit(TokenKind::punctuator, pos_, pos_ + compound.size());
        pos_ += compound.size();
        return;
      }
    }
    emit(TokenKind::punctuator, pos_, pos_ + 1);
    ++pos_;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
  int line_ = 1;
  int token_line_ = 1;
  bool at_line_start_ = true;
  int directive_ = -1;
  int directive_count_ = 0;
  std::vector<Token> tokens_;
};

}  // namespace

std::vector<Token> tokenize(std::string_view source) { return Lexer(source).run(); }

}  // namespace parlab_sim::rewrite
