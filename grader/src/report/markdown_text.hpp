#pragma once
// Markdown pieces shared by the Markdown report and Gradescope's Markdown output:
// result text is escaped (it cannot open a table cell, emphasis or raw HTML) and
// submission text is fenced.
#include <string>
#include <string_view>

namespace parlab::grader::markdown_text {

std::string md_escape(std::string_view raw);      // inline text, markup characters escaped
std::string md_cell(std::string_view raw);        // md_escape on one line (a table cell)
std::string md_code(std::string_view raw);        // inline code that cannot end early
std::string md_code_block(std::string_view text); // a fenced block (untrusted_text)

}  // namespace parlab::grader::markdown_text
