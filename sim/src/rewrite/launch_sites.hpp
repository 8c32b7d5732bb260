#pragma once
// Rewrites every `callee<<<config>>>(args)` into a parlab_sim::launch call.
#include <string>
#include <string_view>
#include <vector>

#include "rewrite/token_view.hpp"

namespace parlab_sim::rewrite {

void rewrite_launches(const TokenView& tokens, std::string_view file, std::vector<Edit>& edits,
                      std::vector<std::string>& errors);

// The callee's text as a C string literal body: whitespace runs collapsed to one
// space, comments dropped, quotes and backslashes escaped.
std::string kernel_name_literal(const TokenView& tokens, std::size_t first, std::size_t last);

}  // namespace parlab_sim::rewrite
