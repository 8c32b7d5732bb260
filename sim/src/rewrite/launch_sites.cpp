// `callee<<<grid, block, shmem, stream>>>(a, b)` becomes
//   ::parlab_sim::launch("callee", [&](auto&&... parlab_sim_args) { callee(parlab_sim_args...); },
//                        ::parlab_sim::launch_config(grid, block, shmem, stream), a, b)
// The configuration and the arguments are copied verbatim (macros, comments, line
// breaks and all); only the brackets around them change.
#include "rewrite/launch_sites.hpp"

namespace parlab_sim::rewrite {
namespace {

// The first token of the callee expression that ends at token `last`: a possibly
// qualified name with template arguments, member access, subscripts, calls or a
// parenthesized expression such as (*kernel_pointer).
std::size_t callee_start(const TokenView& t, std::size_t last) {
  std::size_t i = last;
  for (;;) {
    if (t.is(i, ">")) {
      const std::size_t open = t.match_angle_backward(i);
      if (open == kNone || open == 0 || !t.is_identifier(open - 1)) return kNone;
      i = open - 1;
    } else if (t.is(i, ")") || t.is(i, "]")) {
      const std::size_t open = t.match_backward(i);
      if (open == kNone) return kNone;
      const bool continues = open > 0 && (t.is_identifier(open - 1) || t.is(open - 1, ">") ||
                                          t.is(open - 1, ")") || t.is(open - 1, "]"));
      if (!continues) return open;
      i = open - 1;
      continue;
    } else if (!t.is_identifier(i)) {
      return kNone;
    }
    // t[i] is an identifier: does the expression go on to its left?
    if (i >= 1 && (t.is(i - 1, "::") || t.is(i - 1, ".") || t.is(i - 1, "->"))) {
      if (i >= 2 && (t.is_identifier(i - 2) || t.is(i - 2, ">") || t.is(i - 2, ")") ||
                     t.is(i - 2, "]"))) {
        i -= 2;
        continue;
      }
      return t.is(i - 1, "::") ? i - 1 : kNone;  // a leading :: (global namespace)
    }
    return i;
  }
}

// The first `>` of the `>>>` closing the configuration that starts after `<<<` at
// `open`, skipping anything in brackets.
std::size_t config_end(const TokenView& t, std::size_t open) {
  for (std::size_t i = open + 3; i < t.size(); ++i) {
    if (t.is(i, "(") || t.is(i, "[") || t.is(i, "{")) {
      i = t.match_forward(i);
      if (i == kNone) return kNone;
    } else if (t.is(i, ")") || t.is(i, "]") || t.is(i, "}") || t.is(i, ";")) {
      return kNone;
    } else if (t.is_triple(i, '>')) {
      return i;
    }
  }
  return kNone;
}

// The argument text with each argument that is just NULL turned into nullptr: the
// arguments travel through a tuple, where NULL (an integer on g++) would no longer
// convert to a pointer parameter.
std::string null_arguments_as_nullptr(const TokenView& t, std::size_t open, std::size_t close) {
  const std::string_view source = t.source();
  std::string text(source.substr(t[open].end, t[close].begin - t[open].end));
  for (std::size_t i = close - 1; i > open; --i) {
    const bool alone = (t.is(i - 1, "(") && i - 1 == open) || t.is(i - 1, ",");
    const bool ends = i + 1 == close || t.is(i + 1, ",");
    if (t.is(i, "NULL") && alone && ends) {
      text.replace(t[i].begin - t[open].end, 4, "nullptr");
    }
  }
  return text;
}

}  // namespace

std::string kernel_name_literal(const TokenView& t, std::size_t first, std::size_t last) {
  std::string name;
  for (std::size_t i = first; i <= last; ++i) {
    if (i > first && t[i].begin != t[i - 1].end) name += ' ';
    for (const char c : t.text(i)) {
      if (c == '"' || c == '\\') name += '\\';
      name += c;
    }
  }
  return name;
}

void rewrite_launches(const TokenView& t, std::string_view file, std::vector<Edit>& edits,
                      std::vector<std::string>& errors) {
  for (std::size_t i = 1; i < t.size(); ++i) {
    if (!t.is_triple(i, '<') || t.is(i - 1, "operator")) continue;
    const int line = t[i].line;
    const std::size_t first = callee_start(t, i - 1);
    const std::size_t close = config_end(t, i);
    if (first == kNone) {
      errors.push_back(location(file, line) + ": cannot find the kernel name before <<<");
      continue;
    }
    if (close == kNone) {
      errors.push_back(location(file, line) + ": kernel launch <<< without a matching >>>");
      continue;
    }
    const std::size_t args_open = close + 3;
    const std::size_t args_close = t.is(args_open, "(") ? t.match_forward(args_open) : kNone;
    if (args_close == kNone) {
      errors.push_back(location(file, line) +
                       ": kernel launch without an argument list: expected ( after >>>");
      continue;
    }
    const std::string_view source = t.source();
    const std::string_view callee = t.span(first, i - 1);
    const std::string_view config =
        source.substr(t[i + 2].end, t[close].begin - t[i + 2].end);
    const std::string args =
        null_arguments_as_nullptr(t, args_open, args_close);
    const bool has_args = args_close > args_open + 1;

    std::string replacement = "::parlab_sim::launch(\"";
    replacement += kernel_name_literal(t, first, i - 1);
    replacement += "\", [&](auto&&... parlab_sim_args) { ";
    replacement += callee;
    replacement += "(parlab_sim_args...); }, ::parlab_sim::launch_config(";
    replacement += config;
    replacement += ")";
    if (has_args) {
      replacement += ",";
      replacement += args;
    }
    replacement += ")";
    const std::size_t begin = t[first].begin;
    const std::size_t end = t[args_close].end;
    edits.push_back(Edit{begin, end,
                         with_same_line_count(std::move(replacement),
                                              source.substr(begin, end - begin),
                                              t[i].directive >= 0)});
    i = args_close;
  }
}

}  // namespace parlab_sim::rewrite
