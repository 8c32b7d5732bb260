#pragma once
// The preprocessor's line markers (`# 12 "file" flags`, or `#line 12 "file"`): the next
// line of its output is line 12 of file. Read by the grader's checks of what a
// compiler saw (compile/unchecked_code, compile/compiled_views).
#include <string>
#include <string_view>

namespace parlab::grader {

// True when `line` is a marker; then `number` is the next line's and `file` its file
// (unchanged when the marker names none).
bool read_line_marker(std::string_view line, int& number, std::string& file);

// What a marker's flags say about the file: entered by an #include (flag 1), returned
// to after one (flag 2), or neither (a marker that renumbers, or renames after a `#line`).
enum class MarkerMove { none, enter, leave };
bool read_line_marker(std::string_view line, int& number, std::string& file, MarkerMove& move);

}  // namespace parlab::grader
