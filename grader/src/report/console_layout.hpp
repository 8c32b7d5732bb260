#pragma once
// Layout pieces of the console report: its width, status words and colors, and line
// fitting. Separate from the reporter so the widths are tested on their own.
#include <string>
#include <string_view>
#include <vector>

#include "result/result.hpp"

namespace parlab::grader::console_layout {

inline constexpr std::size_t kWidth = 100;       // every line fits a 100-column terminal

// The result's own words ("passed", "failed", "inconclusive", ...), "not graded" spaced.
std::string status_word(TestStatus s);
const char* status_color(TestStatus s);

// ANSI colors when enabled; escape codes never count as columns, so callers pad the
// plain text and paint it afterwards.
class Paint {
 public:
  explicit Paint(bool enabled) : enabled_(enabled) {}
  std::string operator()(std::string_view text, const char* code) const;
  static constexpr const char* bold = "1";
  static constexpr const char* red = "31";
  static constexpr const char* green = "32";
  static constexpr const char* yellow = "33";
  static constexpr const char* cyan = "36";
  static constexpr const char* dim = "2";
  static constexpr const char* bold_red = "1;31";
  static constexpr const char* bold_green = "1;32";
  static constexpr const char* bold_yellow = "1;33";

 private:
  bool enabled_;
};

// One line cut to `width` code points ("..." at the end when cut); the first line only.
std::string fit_line(std::string_view text, std::size_t width);
std::vector<std::string> lines_of(std::string_view text);

}  // namespace parlab::grader::console_layout
