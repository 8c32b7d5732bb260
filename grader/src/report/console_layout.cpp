#include "report/console_layout.hpp"

#include "report/report_text.hpp"

namespace parlab::grader::console_layout {

std::string status_word(TestStatus s) {
  switch (s) {
    case TestStatus::passed: return "passed";
    case TestStatus::partial: return "partial";
    case TestStatus::failed: return "failed";
    case TestStatus::skipped: return "skipped";
    case TestStatus::inconclusive: return "inconclusive";
    case TestStatus::not_graded: return "not graded";
  }
  return to_string(s);
}

const char* status_color(TestStatus s) {
  switch (s) {
    case TestStatus::passed: return Paint::green;
    case TestStatus::partial: return Paint::yellow;
    case TestStatus::failed: return Paint::red;
    case TestStatus::skipped: return Paint::cyan;
    case TestStatus::inconclusive: return Paint::yellow;
    case TestStatus::not_graded: return Paint::dim;  // never red: nothing was lost
  }
  return Paint::bold;
}

std::string Paint::operator()(std::string_view text, const char* code) const {
  if (!enabled_ || text.empty()) return std::string(text);
  return std::string("\x1b[") + code + "m" + std::string(text) + "\x1b[0m";
}

std::string fit_line(std::string_view text, std::size_t width) {
  return report_text::first_line_fitted(text, width);
}

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

}  // namespace parlab::grader::console_layout
