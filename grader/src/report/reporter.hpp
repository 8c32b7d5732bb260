#pragma once
// Report formats (google/benchmark's habit): one Reporter per format, one file each,
// chosen by name from a plain table. Reporters only read the GradeResult; none of
// them adds information the canonical JSON form does not hold.
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "result/result.hpp"

namespace parlab::grader {

struct ReportOptions {
  bool color = false;    // ANSI colors (console only)
  bool verbose = false;  // details for passed tests too, build command and log, host model
  std::size_t width = 100;  // console: the terminal's columns (60 to 100; cli/terminal_width)
  // Where the full report of this grading was saved (the console's last lines name it);
  // empty: not said.
  std::string full_report;
  // Gradescope: performance tests whose speed ratio goes on the leaderboard (the
  // lab's [gradescope] leaderboard); empty: no leaderboard.
  std::vector<std::string> leaderboard;
};

class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual std::string render(const GradeResult& result) const = 0;
};

// One row of the table of formats (reporter_table.cpp).
struct ReportFormat {
  std::string_view name;       // "gradescope": also `grade LAB --gradescope FILE`
  std::string_view file_name;  // the conventional file name ("results.json")
  // What `grade LAB --NAME FILE` writes, for its help ("a Gradescope results.json");
  // empty: grade has no such flag (the console report goes to stdout).
  std::string_view written_by_grade;
  std::unique_ptr<Reporter> (*make)(const ReportOptions&);
};

// Every format, in the table's order (console first).
std::span<const ReportFormat> report_formats();

// The format's reporter (each format's file defines its factory, make_<name>_reporter,
// named in the table's row). Throws std::invalid_argument listing the valid names for an
// unknown format.
std::unique_ptr<Reporter> make_reporter(std::string_view format, const ReportOptions& options);

// "console", "json", "gradescope", "junit", "markdown", "html", in that order.
std::vector<std::string_view> reporter_names();

// The conventional file name for a format's output, e.g. "results.json" for
// gradescope (the name Gradescope reads). Throws std::invalid_argument like make_reporter.
std::string_view report_file_name(std::string_view format);

}  // namespace parlab::grader
