// The plain table of report formats: name -> file name, what grade writes, factory.
// Adding a format is one file (its reporter) and one row here: the command line's
// --flags, their help and the files grade writes all come from this table.
#include <stdexcept>
#include <string>

#include "report/reporter.hpp"

namespace parlab::grader {

// One factory per format, each defined in its own file (<name>_reporter.cpp).
std::unique_ptr<Reporter> make_console_reporter(const ReportOptions& options);
std::unique_ptr<Reporter> make_json_reporter(const ReportOptions& options);
std::unique_ptr<Reporter> make_gradescope_reporter(const ReportOptions& options);
std::unique_ptr<Reporter> make_junit_reporter(const ReportOptions& options);
std::unique_ptr<Reporter> make_markdown_reporter(const ReportOptions& options);
std::unique_ptr<Reporter> make_html_reporter(const ReportOptions& options);

namespace {

// Each row: the format's name (also `grade LAB --NAME FILE` and `grade report --format
// NAME`), its conventional file name, what `grade` writes with it (its --help line;
// empty: no --flag, the console goes to stdout), and its factory.
constexpr ReportFormat kReporters[] = {
    {"console", "report.txt", "", make_console_reporter},
    {"json", "result.json", "the canonical JSON result", make_json_reporter},
    {"gradescope", "results.json", "a Gradescope results.json", make_gradescope_reporter},
    {"junit", "junit.xml", "JUnit XML", make_junit_reporter},
    {"markdown", "report.md", "a Markdown report", make_markdown_reporter},
    {"html", "report.html", "a self-contained HTML report", make_html_reporter},
};

const ReportFormat& find_entry(std::string_view format) {
  for (const ReportFormat& entry : kReporters) {
    if (entry.name == format) return entry;
  }
  std::string valid;
  for (const ReportFormat& entry : kReporters) {
    if (!valid.empty()) valid += ", ";
    valid += entry.name;
  }
  throw std::invalid_argument("unknown report format '" + std::string(format) +
                              "' (valid formats: " + valid + ")");
}

}  // namespace

std::unique_ptr<Reporter> make_reporter(std::string_view format, const ReportOptions& options) {
  return find_entry(format).make(options);
}

std::vector<std::string_view> reporter_names() {
  std::vector<std::string_view> names;
  for (const ReportFormat& entry : kReporters) names.push_back(entry.name);
  return names;
}

std::string_view report_file_name(std::string_view format) { return find_entry(format).file_name; }

std::span<const ReportFormat> report_formats() { return kReporters; }

}  // namespace parlab::grader
