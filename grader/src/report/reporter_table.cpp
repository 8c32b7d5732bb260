// The plain table of report formats: name -> file name, factory. Adding a format is
// one file and one row here.
#include <array>
#include <stdexcept>
#include <string>

#include "report/reporter.hpp"

namespace parlab::grader {
namespace {

struct ReporterEntry {
  std::string_view name;
  std::string_view file_name;
  std::unique_ptr<Reporter> (*make)(const ReportOptions&);
};

constexpr std::array<ReporterEntry, 6> kReporters{{
    {"console", "report.txt", make_console_reporter},
    {"json", "result.json", make_json_reporter},
    {"gradescope", "results.json", make_gradescope_reporter},
    {"junit", "junit.xml", make_junit_reporter},
    {"markdown", "report.md", make_markdown_reporter},
    {"html", "report.html", make_html_reporter},
}};

const ReporterEntry& find_entry(std::string_view format) {
  for (const ReporterEntry& entry : kReporters) {
    if (entry.name == format) return entry;
  }
  std::string valid;
  for (const ReporterEntry& entry : kReporters) {
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
  for (const ReporterEntry& entry : kReporters) names.push_back(entry.name);
  return names;
}

std::string_view report_file_name(std::string_view format) { return find_entry(format).file_name; }

}  // namespace parlab::grader
