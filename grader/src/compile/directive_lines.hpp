#pragma once
// The preprocessing directives of a C++ source file, read as the preprocessor reads them
// (for compile/conditional_macros, which must see every conditional a compiler sees):
//   - lines are spliced first (a backslash, blanks, a line break), so a splice cannot
//     close a comment or join a directive's lines behind the reader's back;
//   - comments are removed, as are string, character and raw string literals, and
//     numbers are read whole (a digit separator is not a quote: 1'000);
//   - a directive starts with '#' or its digraph "%:" first on its line, and runs to the
//     end of the line (a block comment in it may carry it onto later lines).
#include <string>
#include <string_view>
#include <vector>

namespace parlab::grader {

struct Directive {
  int line = 0;         // of the file, where the directive starts
  std::string keyword;  // "if", "ifdef", "define", ...
  std::string rest;     // after the keyword, comments replaced by a blank
};

std::vector<Directive> directives_of(std::string_view text);

// The identifiers of a directive's text, or of a whole file's (lines spliced first),
// comments, literals and numbers skipped; `pastes` is set when it holds a token paste
// (## or %:%:).
std::vector<std::string> identifiers_of(std::string_view text, bool& pastes);

}  // namespace parlab::grader
