#pragma once
// `grade LAB [SUBMISSION_DIR] [options]` read into plain options: the pure first step of
// the grade command (no file, environment or terminal looked at), so every flag's
// checking is unit-tested alone. The report --flags come from the reporters' table.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "grading/device_choice.hpp"
#include "result/result.hpp"

namespace parlab::grader {

// One report file asked for: `--FORMAT PATH`.
struct ReportFile {
  std::string format;  // a name of report_formats()
  std::string path;    // as given
};

struct GradeCommandLine {
  bool help = false;  // --help: print grade_command_help, nothing else
  std::string lab_id;
  std::optional<std::string> submission;  // as given (made absolute when run)
  bool reference_mode = false;
  bool performance = true;  // false: --no-perf
  std::vector<std::string> only;  // --only, as given (checked against the lab when run)
  DeviceRequest device = DeviceRequest::automatic;
  std::optional<Track> language;  // --language: the track, else found in the folder
  std::optional<std::uint64_t> seed;
  std::optional<std::string> work_dir;
  std::optional<std::string> toolchain;
  std::optional<double> wall_limit;  // > 0
  // Checked; `require` by default when a Gradescope report is asked for (graded unattended).
  std::string sandbox_level = "auto";
  bool keep_runs = false;
  std::string color = "auto";  // auto | always | never
  bool verbose = false;
  std::vector<ReportFile> report_files;  // in the table's order

  // The file asked for in `format`, if any.
  std::optional<std::string> report_file(const std::string& format) const;
};

// Throws UsageError naming the flag and what was wrong.
GradeCommandLine parse_grade_command_line(const std::string& lab_id,
                                          const std::vector<std::string>& args);

// The usage line and every option, for --help.
std::string grade_command_help(const std::string& lab_id);

}  // namespace parlab::grader
