// The report a student reads in the terminal: header, one table row per test, the
// total, then details that teach for each test that lost points, then the build.
// Build problems come last because the end of the output is what stays on screen.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "report/report_text.hpp"
#include "report/untrusted_text.hpp"
#include "report/reporter.hpp"

namespace parlab::grader {
namespace {

using namespace report_text;

constexpr std::size_t kMessageWidth = 50;  // message column; details hold the rest

class Paint {
 public:
  explicit Paint(bool enabled) : enabled_(enabled) {}
  std::string operator()(std::string_view text, const char* code) const {
    if (!enabled_ || text.empty()) return std::string(text);
    return std::string("\x1b[") + code + "m" + std::string(text) + "\x1b[0m";
  }
  static constexpr const char* bold = "1";
  static constexpr const char* red = "31";
  static constexpr const char* green = "32";
  static constexpr const char* yellow = "33";
  static constexpr const char* cyan = "36";
  static constexpr const char* bold_red = "1;31";
  static constexpr const char* bold_yellow = "1;33";

 private:
  bool enabled_;
};

const char* status_color(TestStatus s) {
  switch (s) {
    case TestStatus::passed: return Paint::green;
    case TestStatus::partial: return Paint::yellow;
    case TestStatus::failed: return Paint::red;
    case TestStatus::skipped: return Paint::cyan;
    case TestStatus::inconclusive: return Paint::yellow;
    case TestStatus::not_graded: return Paint::cyan;
  }
  return Paint::bold;
}

std::string rtrim(std::string s) {
  s.erase(s.find_last_not_of(' ') + 1);
  return s;
}

std::string header(const GradeResult& r, const ReportOptions& options, const Paint& paint) {
  std::string out = paint("== " + r.lab_id + ": " + r.lab_title + " ==", Paint::bold) + "\n";
  out += "Submission:  " + untrusted_text::escape_line(r.submission) + "\n";
  if (r.reference_mode) {
    out += "Mode:        " + paint("REFERENCE MODE", Paint::bold_yellow) +
           " (the reference solution graded as a submission)\n";
  }
  std::string host = r.host.hostname + ", " + std::to_string(r.host.cores) + " cores";
  if (!r.host.gpu.empty()) host += ", GPU: " + r.host.gpu;
  out += "Host:        " + host + "\n";
  if (!r.device.mode.empty()) out += "Device:      " + device_line(r.device) + "\n";
  if (options.verbose && !r.host.cpu_model.empty()) out += "CPU:         " + r.host.cpu_model + "\n";
  out += "Sandbox:     " + r.host.sandbox + "\n";
  out += "Fresh seed:  " + std::to_string(r.fresh_seed) + " (repeat with --seed " +
         std::to_string(r.fresh_seed) + ")\n";
  if (!r.performance_enabled) out += "Performance: not measured in this grading\n";
  out += "Grader:      parlab " + r.grader_version + ", started " + r.started_at + ", took " +
         format_seconds(r.seconds) + "\n";
  for (const std::string& note : r.notes) {
    out += paint("NOTE: ", Paint::bold_yellow) + untrusted_text::escape_controls(note) + "\n";
  }
  return out;
}

std::string table(const GradeResult& r, const Paint& paint) {
  using Row = std::array<std::string, 5>;
  std::vector<Row> rows;
  rows.push_back({"Test", "Status", "Points", "Ratio", "Message"});
  for (const TestResult& t : r.tests) {
    rows.push_back({display_name(t), to_string(t.status), points_cell(t),
                    t.measurement ? format_ratio(*t.measurement) : "",
                    first_line_fitted(untrusted_text::escape_controls(t.message), kMessageWidth)});
  }
  std::array<std::size_t, 4> widths{};
  for (const Row& row : rows) {
    for (std::size_t c = 0; c < widths.size(); ++c) {
      widths[c] = std::max(widths[c], display_width(row[c]));
    }
  }
  std::string out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    std::string line;
    for (std::size_t c = 0; c < widths.size(); ++c) {
      // Paint the text only and pad outside the escape codes, which take no columns.
      const std::string text = i > 0 && c == 1 ? paint(row[c], status_color(r.tests[i - 1].status))
                                               : row[c];
      line += text + std::string(widths[c] - display_width(row[c]) + 2, ' ');
    }
    line = rtrim(line + row[4]);
    out += (i == 0 ? paint(line, Paint::bold) : line) + "\n";
    if (i == 0) {
      std::string rule;
      for (std::size_t w : widths) rule += std::string(w, '-') + "  ";
      out += rule + std::string(std::string_view("Message").size(), '-') + "\n";
    }
  }
  return out;
}

std::string details(const GradeResult& r, const ReportOptions& options, const Paint& paint) {
  std::string out;
  for (const TestResult& t : r.tests) {
    if (!needs_details(t, options.verbose, kMessageWidth)) continue;
    out += "\n" + paint(display_name(t), Paint::bold) + " [" +
           paint(to_string(t.status), status_color(t.status)) + ", " + points_cell(t) + "]\n";
    const TestDetails d = test_details(t, options.verbose);
    if (!t.message.empty()) out += indent(untrusted_text::escape_controls(t.message), "    ");
    for (const std::string& fact : d.facts) out += "    " + fact + "\n";
    if (!d.stdout_tail.empty()) out += "    stdout (last lines):\n" + indent(d.stdout_tail, "      | ");
    if (!d.stderr_tail.empty()) out += "    stderr (last lines):\n" + indent(d.stderr_tail, "      | ");
  }
  return out.empty() ? out : "\n" + paint("Details", Paint::bold) + "\n-------\n" + out.substr(1);
}

std::string build(const BuildResult& b, const ReportOptions& options, const Paint& paint) {
  if (b.ok && b.diagnostics.empty() && !options.verbose) return "";
  const std::string text = plain_build_report(b, options.verbose);
  const std::size_t first_end = text.find('\n');
  const char* color = b.ok ? Paint::bold : Paint::bold_red;
  std::string out = "\n" + paint(text.substr(0, first_end), color) + "\n";
  out += indent(std::string_view(text).substr(first_end + 1), "    ");
  return out;
}

class ConsoleReporter final : public Reporter {
 public:
  explicit ConsoleReporter(const ReportOptions& options) : options_(options) {}

  std::string render(const GradeResult& r) const override {
    const Paint paint(options_.color);
    std::string out = header(r, options_, paint) + "\n";
    if (r.tests.empty()) {
      out += "No tests were run.\n";
    } else {
      out += table(r, paint);
    }
    out += "\n" + paint(total_line(r), Paint::bold) + "\n";
    out += details(r, options_, paint);
    out += build(r.build, options_, paint);
    return out;
  }

 private:
  ReportOptions options_;
};

}  // namespace

std::unique_ptr<Reporter> make_console_reporter(const ReportOptions& options) {
  return std::make_unique<ConsoleReporter>(options);
}

}  // namespace parlab::grader
