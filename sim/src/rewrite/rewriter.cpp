#include "parlab_sim/rewrite.hpp"

#include "rewrite/launch_sites.hpp"
#include "rewrite/lexer.hpp"
#include "rewrite/shared_declarations.hpp"
#include "rewrite/token_view.hpp"

namespace parlab_sim {
namespace {

// Inline PTX is GPU assembly: g++ would hand it to the x86 assembler. Say so instead.
void reject_inline_assembly(const rewrite::TokenView& t, std::string_view file,
                            std::vector<std::string>& errors) {
  for (std::size_t i = 0; i + 1 < t.size(); ++i) {
    if (!(t.is(i, "asm") || t.is(i, "__asm__") || t.is(i, "__asm"))) continue;
    if (!(t.is(i + 1, "(") || t.is(i + 1, "volatile") || t.is(i + 1, "__volatile__"))) continue;
    errors.push_back(rewrite::location(file, t[i].line) +
                     ": inline PTX (asm) is not supported by the simulator; write it in CUDA C++ "
                     "(an intrinsic such as __shfl_sync or atomicAdd), or grade on a GPU");
  }
}

}  // namespace

RewriteResult rewrite_cuda_source(std::string_view source, std::string_view file_name) {
  // A byte-order mark (Windows editors) may only start a file; the #line goes first.
  if (source.starts_with("\xEF\xBB\xBF")) source.remove_prefix(3);
  const std::vector<rewrite::Token> tokens = rewrite::tokenize(source);
  const rewrite::TokenView view(source, tokens);
  std::vector<rewrite::Edit> edits;
  RewriteResult result;
  rewrite::rewrite_launches(view, file_name, edits, result.errors);
  rewrite::rewrite_shared_declarations(view, file_name, edits, result.errors);
  reject_inline_assembly(view, file_name, result.errors);
  // The file's folder is a source root: run-time reports name files relative to it.
  const std::size_t slash = file_name.rfind('/');
  const std::string root_line =
      slash == std::string_view::npos
          ? std::string()
          : "PARLAB_SIM_SOURCE_ROOT(" + rewrite::quoted(file_name.substr(0, slash + 1)) + ")\n";
  result.text = root_line + "#line 1 " + rewrite::quoted(file_name) + "\n" +
                rewrite::apply_edits(source, std::move(edits));
  return result;
}

}  // namespace parlab_sim
