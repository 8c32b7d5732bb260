#include "parlab_sim/rewrite.hpp"

#include "rewrite/launch_sites.hpp"
#include "rewrite/lexer.hpp"
#include "rewrite/shared_declarations.hpp"
#include "rewrite/token_view.hpp"

namespace parlab_sim {
namespace {

bool is_asm_keyword(const rewrite::TokenView& t, std::size_t i) {
  return t.is(i, "asm") || t.is(i, "__asm__") || t.is(i, "__asm");
}

// Where a statement may start: an asm there is an asm statement (not a declaration's
// asm label, `int x asm("r1");`).
bool starts_statement(const rewrite::TokenView& t, std::size_t i) {
  if (i == 0) return true;
  for (const char* before : {";", "{", "}", ")", ":", "else", "do"}) {
    if (t.is(i - 1, before)) return true;
  }
  return false;
}

// Inline PTX is GPU assembly, which g++ would hand to the x86 assembler. An asm
// statement becomes PARLAB_SIM_INLINE_PTX(): the program builds, and a run that reaches
// it stops as "not graded here: needs a GPU" (parlab_sim/unsupported_feature.hpp), so
// correct code is never refused. An asm anywhere else is refused with its line.
void replace_inline_assembly(const rewrite::TokenView& t, std::string_view file,
                             std::vector<rewrite::Edit>& edits, std::vector<std::string>& errors) {
  for (std::size_t i = 0; i + 1 < t.size(); ++i) {
    if (!is_asm_keyword(t, i)) continue;
    std::size_t open = i + 1;
    while (t.is(open, "volatile") || t.is(open, "__volatile__") || t.is(open, "goto") ||
           t.is(open, "inline")) {
      ++open;
    }
    if (!t.is(open, "(")) continue;
    const std::size_t close = t.match_forward(open);
    if (close == rewrite::kNone || !starts_statement(t, i)) {
      errors.push_back(rewrite::location(file, t[i].line) +
                       ": inline PTX (asm) outside a statement is not supported by the "
                       "simulator; write it in CUDA C++ or grade on a GPU");
      continue;
    }
    const std::string_view original = t.span(i, close);
    edits.push_back({t[i].begin, t[close].end,
                     rewrite::with_same_line_count("PARLAB_SIM_INLINE_PTX()", original,
                                                   t[i].directive >= 0)});
    i = close;
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
  replace_inline_assembly(view, file_name, edits, result.errors);
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
