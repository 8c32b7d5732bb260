#pragma once
// How many columns the user's terminal has, so the report and the progress line fit
// it (an 80-column terminal wraps a 100-column line, and a wrapped progress line
// cannot be erased with "\r").
#include <cstddef>

namespace parlab::grader {

// The terminal's width on `fd` (TIOCGWINSZ), else $COLUMNS when it is a number, else 0
// (not a terminal: the caller's default).
std::size_t terminal_columns(int fd);

// The console report's width for `columns`: the terminal's, at most 100 (longer lines
// read badly) and at least 60 (the table needs that much); 100 when unknown (0).
std::size_t report_width(std::size_t columns);

}  // namespace parlab::grader
