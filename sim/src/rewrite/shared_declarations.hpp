#pragma once
// Rewrites __shared__ declarations:
//   extern __shared__ T name[];   in a function  -> T* const name = <block's dynamic buffer>;
//                                 at file scope  -> #define name (<block's dynamic buffer>)
//   __shared__ T a[..], b[..];    in a function  -> unchanged + PARLAB_SIM_STATIC_SHARED(
//                                                   sizeof(a) + sizeof(b));
// and drops a `static` written with __shared__ (the macro supplies it). The specifiers
// come in any order nvcc takes: `extern float __shared__ s[];`, `__shared__ extern ...`,
// `static __shared__ ...`, `__shared__ __align__(16) float ...`.
#include <string>
#include <string_view>
#include <vector>

#include "rewrite/token_view.hpp"

namespace parlab_sim::rewrite {

void rewrite_shared_declarations(const TokenView& tokens, std::string_view file,
                                 std::vector<Edit>& edits, std::vector<std::string>& errors);

// The declared names of `declaration` tokens [first, last) (after __shared__): the last
// plain identifier of each comma-separated declarator before its `[`, `=` or `{`.
std::vector<std::string> declared_names(const TokenView& tokens, std::size_t first, std::size_t last);

}  // namespace parlab_sim::rewrite
