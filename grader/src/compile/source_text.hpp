#pragma once
// Small pieces of reading C++ source text, shared by the grader's checks of what a
// student wrote or a compiler saw (compile/unchecked_code, compile/architecture_names).
#include <cstddef>
#include <string_view>

namespace parlab::grader {

// Past a literal that starts at text[i] (a quote): its closing quote, backslashes
// honoured; an unclosed one ends before its line's break.
std::size_t skip_quoted(std::string_view text, std::size_t i);

}  // namespace parlab::grader
