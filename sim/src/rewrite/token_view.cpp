#include "rewrite/token_view.hpp"

#include <algorithm>

namespace parlab_sim::rewrite {
namespace {

char closing_of(std::string_view open) {
  return open == "(" ? ')' : open == "[" ? ']' : open == "{" ? '}' : '\0';
}
char opening_of(std::string_view close) {
  return close == ")" ? '(' : close == "]" ? '[' : close == "}" ? '{' : '\0';
}

}  // namespace

bool TokenView::is_triple(std::size_t i, char c) const {
  const std::string_view one(&c, 1);
  return i + 2 < tokens_.size() && is(i, one) && is(i + 1, one) && is(i + 2, one) &&
         tokens_[i].end == tokens_[i + 1].begin && tokens_[i + 1].end == tokens_[i + 2].begin;
}

std::size_t TokenView::match_forward(std::size_t open) const {
  std::vector<char> expected{closing_of(text(open))};
  for (std::size_t i = open + 1; i < tokens_.size(); ++i) {
    const std::string_view t = text(i);
    if (const char close = closing_of(t); close != '\0') {
      expected.push_back(close);
    } else if (opening_of(t) != '\0') {
      if (t[0] != expected.back()) return kNone;
      expected.pop_back();
      if (expected.empty()) return i;
    }
  }
  return kNone;
}

std::size_t TokenView::match_backward(std::size_t close) const {
  std::vector<char> expected{opening_of(text(close))};
  for (std::size_t i = close; i-- > 0;) {
    const std::string_view t = text(i);
    if (const char open = opening_of(t); open != '\0') {
      expected.push_back(open);
    } else if (closing_of(t) != '\0') {
      if (t[0] != expected.back()) return kNone;
      expected.pop_back();
      if (expected.empty()) return i;
    }
  }
  return kNone;
}

std::size_t TokenView::match_angle_backward(std::size_t close) const {
  int depth = 0;
  for (std::size_t i = close + 1; i-- > 0;) {
    const std::string_view t = text(i);
    if (t == ")" || t == "]" || t == "}") {
      i = match_backward(i);
      if (i == kNone) return kNone;
    } else if (t == ">") {
      ++depth;
    } else if (t == "<") {
      if (--depth == 0) return i;
    } else if (t == ";" || t == "{" || t == "}") {
      return kNone;
    }
  }
  return kNone;
}

std::string apply_edits(std::string_view source, std::vector<Edit> edits) {
  std::stable_sort(edits.begin(), edits.end(),
                   [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
  std::string out;
  out.reserve(source.size() + 256 * edits.size());
  std::size_t position = 0;
  for (const Edit& edit : edits) {
    out.append(source.substr(position, edit.begin - position));
    out.append(edit.replacement);
    position = edit.end;
  }
  out.append(source.substr(position));
  return out;
}

std::string with_same_line_count(std::string replacement, std::string_view original,
                                 bool in_directive) {
  const auto lines_in = [](std::string_view text) { return std::count(text.begin(), text.end(), '\n'); };
  for (auto missing = lines_in(original) - lines_in(replacement); missing > 0; --missing) {
    replacement += in_directive ? " \\\n" : "\n";
  }
  return replacement;
}

std::string location(std::string_view file, int line) {
  return std::string(file) + ":" + std::to_string(line);
}

std::string quoted(std::string_view file) {
  std::string text = "\"";
  for (const char c : file) {
    if (c == '"' || c == '\\') text += '\\';
    text += c;
  }
  return text + "\"";
}

}  // namespace parlab_sim::rewrite
