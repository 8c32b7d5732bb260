#pragma once
// Text that came from a submission (compiler diagnostics, its stdout/stderr, the
// message in its status.json, mismatch labels) is data, never markup: a reporter
// shows it through these functions, so an escape sequence cannot clear the screen,
// set the title or write the clipboard, and a "# PASS 100/100" line cannot become a
// Markdown heading.
#include <string>
#include <string_view>

namespace parlab::grader::untrusted_text {

// Every control character shown as an escape: C0 except newline and tab as \xNN
// (ESC -> \x1b), DEL as \x7f, C1 (U+0080..U+009F) as \u0080.., and each byte of
// invalid UTF-8 as \xNN (a raw 8-bit CSI 0x9b -> \x9b), and the bidirectional controls
// (U+202A..U+202E, U+2066..U+2069, U+200E, U+200F, U+061C) as \u202e. CRLF becomes LF. What remains
// is valid UTF-8 that no terminal interprets.
std::string escape_controls(std::string_view text);

// escape_controls, and newlines and tabs too (\n, \t): for text that must stay on
// one line (a table cell, a list item, a label inside a sentence).
std::string escape_line(std::string_view text);

// Length of the well-formed UTF-8 sequence at the start of `s` (1 to 4), or 0 when it
// is ill-formed (overlong, a surrogate, past U+10FFFF, truncated). `s` is not empty.
std::size_t utf8_sequence_length(std::string_view s);

// The longest run of consecutive backticks.
std::size_t longest_backtick_run(std::string_view text);

// A fenced Markdown code block holding `text` (escaped): the fence is longer than any
// backtick run inside (at least three), so the text cannot close it early.
std::string markdown_code_block(std::string_view text);

// Drops what escape_controls leaves that XML 1.0 still forbids (U+FFFE, U+FFFF).
std::string xml_legal(std::string_view escaped);

}  // namespace parlab::grader::untrusted_text
