// The report a student reads in the terminal, built to be read in ten seconds: a
// short header, one row per test (status, points, one short reason), tests skipped by
// design grouped in one row, then details only for what lost points (each fact said
// once), the build's problems, and the verdict last: the report's file, what to do
// next and the score, because the end of the output is what stays on screen.
// Every line fits the width asked for (the terminal's, 60 to 100 columns).
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "report/console_layout.hpp"
#include "report/report_text.hpp"
#include "report/reporter.hpp"
#include "report/untrusted_text.hpp"
#include "util/number_format.hpp"

namespace parlab::grader {
namespace {

using namespace report_text;
using console_layout::Paint;
using console_layout::fit_line;

// Wrapped to the width, lines after the first indented under the label.
std::string hanging(const std::string& label, const std::string& text, std::size_t width,
                    std::size_t label_width = 7) {
  const std::string pad(label_width, ' ');
  std::string out = wrap(text, width, pad);
  std::string first = label;
  first.resize(label_width, ' ');
  return first + out.substr(std::min(label_width, out.size()));
}

// The short reason of a row; tests the failed build kept from running say so briefly.
std::string row_reason(const GradeResult& r, const TestResult& t) {
  if (!r.build.ok && t.outcome == RunOutcome::not_run) return "not run: the build failed (below)";
  return short_reason(r, t);
}

std::string header(const GradeResult& r, const ReportOptions& options, const Paint& paint) {
  const std::size_t width = options.width;
  std::string out = paint(fit_line(r.lab_id + " " + r.lab_title, width), Paint::bold);
  if (r.reference_mode) out += "  " + paint("REFERENCE MODE", Paint::bold_yellow);
  out += "\n";
  out += fit_line("Submission: " + untrusted_text::escape_line(r.submission), width) + "\n";
  if (r.track != Track::cpp) out += fit_line("Track:      " + std::string(to_string(r.track)), width) + "\n";
  std::string host = "Machine:    " + r.host.hostname + ", " + std::to_string(r.host.cores) +
                     " cores, " + r.host.sandbox + ", seed " + std::to_string(r.fresh_seed) +
                     ", took " + format_seconds(r.seconds);
  out += fit_line(host, width) + "\n";
  if (r.device.mode != DeviceMode::host) out += hanging("Device:", device_line(r.device), width, 12);
  if (options.verbose) {
    if (!r.host.cpu_model.empty()) out += fit_line("CPU:        " + r.host.cpu_model, width) + "\n";
    out += fit_line("Grader:     parlab " + r.grader_version + ", started " + r.started_at, width) + "\n";
  }
  // Notes are paragraphs; one line each unless -v (the Markdown/HTML reports hold them whole).
  for (const std::string& note : r.notes) {
    const std::string text = untrusted_text::escape_controls(note);
    out += options.verbose ? hanging("Note:", text, width, 6) : fit_line("Note: " + text, width) + "\n";
  }
  if (!r.interrupted.empty()) {
    out += paint(fit_line("INCOMPLETE: " + untrusted_text::escape_line(r.interrupted), width),
                 Paint::bold_red) + "\n";
  }
  return out;
}

// A row of the table: one test, or several skipped by design with the same reason.
struct Row {
  TestStatus status;
  std::string points;
  std::string name;
  std::string reason;
  bool group = false;  // several tests folded: the name lists them, the reason is said whole
};

// Tests that were never run for one shared reason (the build failed, no GPU here,
// --no-perf, a test they depend on failed) fold into one row when two or more share it.
bool foldable(const TestResult& t) {
  return t.status == TestStatus::not_graded ||
         (t.outcome == RunOutcome::not_run &&
          (t.status == TestStatus::skipped || t.status == TestStatus::failed));
}

std::vector<Row> rows_of(const GradeResult& r) {
  struct Group {
    TestStatus status;
    std::string reason;
    std::vector<const TestResult*> tests;
  };
  std::vector<Group> groups;
  for (const TestResult& t : r.tests) {
    if (!foldable(t)) continue;
    const std::string reason = row_reason(r, t);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) {
      return g.status == t.status && g.reason == reason;
    });
    if (it == groups.end()) {
      groups.push_back({t.status, reason, {&t}});
    } else {
      it->tests.push_back(&t);
    }
  }
  auto group_of = [&](const TestResult& t) -> const Group* {
    for (const Group& g : groups) {
      if (std::find(g.tests.begin(), g.tests.end(), &t) != g.tests.end()) return &g;
    }
    return nullptr;
  };
  std::vector<Row> rows;
  for (const TestResult& t : r.tests) {
    const Group* g = foldable(t) ? group_of(t) : nullptr;
    if (g && g->tests.size() > 1) continue;  // folded: one row below
    rows.push_back({t.status, points_cell(t), display_name(t), row_reason(r, t)});
  }
  for (const Group& g : groups) {
    if (g.tests.size() < 2) continue;
    double points = 0;
    double max_points = 0;
    std::string names;
    for (const TestResult* t : g.tests) {
      points += t->points;
      max_points += t->max_points;
      names += (names.empty() ? "" : ", ") + display_name(*t);
    }
    // A group left out of the total (grouped by status: all or none are): "- / 32".
    const std::string earned = is_left_out(*g.tests.front()) ? "-" : format_points(points);
    rows.push_back({g.status, earned + " / " + format_points(max_points),
                    std::to_string(g.tests.size()) + " tests: " + names, g.reason, true});
  }
  return rows;
}

// "  name  status  points  reason": the name first, as a student scans for it; the
// status word is the result's own (passed, failed, ...), colored on a terminal.
std::string table(const GradeResult& r, const Paint& paint, std::size_t width) {
  const std::vector<Row> rows = rows_of(r);
  std::size_t points_width = 0;
  std::size_t name_width = 0;
  std::size_t status_width = 0;
  for (const Row& row : rows) {
    points_width = std::max(points_width, display_width(row.points));
    if (!row.group) name_width = std::max(name_width, display_width(row.name));
    status_width = std::max(status_width, display_width(console_layout::status_word(row.status)));
  }
  // A test's name is how it is found in the details: cut only past 44 columns (fewer
  // on a narrow terminal); the reason gets the rest of the line, or the lines under it.
  name_width = std::clamp<std::size_t>(name_width, 24, std::clamp<std::size_t>(width * 2 / 5 + 4, 24, 44));
  const std::size_t used = 2 + name_width + 2 + status_width + 2 + points_width + 2;
  const std::size_t reason_width = width > used ? width - used : 0;
  std::string out;
  for (const Row& row : rows) {
    const std::string name = first_line_fitted(row.name, name_width);
    const std::string status = console_layout::status_word(row.status);
    std::string line = "  " + name + std::string(name_width - display_width(name) + 2, ' ') +
                       paint(status, console_layout::status_color(row.status)) +
                       std::string(status_width - display_width(status) + 2, ' ') +
                       std::string(points_width - display_width(row.points), ' ') + row.points;
    const bool reason_fits = display_width(row.reason) <= reason_width;
    if (!row.reason.empty() && reason_fits) line += "  " + row.reason;
    out += line + "\n";
    // A reason too long for the rest of the row is said whole under it, never cut.
    if (!row.reason.empty() && !reason_fits) out += wrap(row.reason, width, "      ");
  }
  return out;
}

bool deserves_details(const TestResult& t, bool verbose) {
  if (verbose) return t.outcome != RunOutcome::not_run || !t.message.empty();
  return t.status == TestStatus::failed || t.status == TestStatus::partial ||
         t.status == TestStatus::inconclusive ||
         (t.status == TestStatus::passed && !is_hidden(t) && (t.roofline || !t.phases.empty()));
}

// The message repeats the first mismatch when the comparator wrote it: say it once.
bool message_repeats_mismatch(const TestResult& t) {
  if (!t.mismatch || is_hidden(t)) return false;
  return t.message.find(t.mismatch->array + "[" + std::to_string(t.mismatch->index) + "]") !=
         std::string::npos;
}

std::string tail_block(const std::string& title, const std::string& tail, std::size_t width) {
  std::string out = "    " + title + "\n";
  for (const std::string& line : console_layout::lines_of(tail)) {
    out += fit_line("      | " + line, width) + "\n";
  }
  return out;
}

// Without -v, details for this many tests at most: a skeleton's 27 failures would
// bury the verdict; the rest are in the full report.
constexpr std::size_t kMostDetails = 8;

// Tests "failing alike" share this key: the same message, or a first mismatch in the
// output array of the same task (vector_add's c[0] in four tests is one lesson).
std::string alike_key(const TestResult& t) {
  // The test name's first word stands for its task ("matrix_scale, 1 x 1").
  if (t.mismatch && !is_hidden(t)) {
    return "array:" + t.name.substr(0, t.name.find_first_of(", ")) + "/" + t.mismatch->array;
  }
  return "message:" + t.message;
}

std::string details(const GradeResult& r, const ReportOptions& options, const Paint& paint) {
  const std::size_t width = options.width;
  std::string out;
  std::size_t shown = 0;
  std::size_t held_back = 0;
  std::size_t repeated = 0;
  std::vector<std::string> said;  // alike_key of the tests detailed: each lesson once
  for (const TestResult& t : r.tests) {
    if (!deserves_details(t, options.verbose)) continue;
    // Not-run tests folded in the table say nothing more here.
    if (!options.verbose && foldable(t)) continue;
    if (!options.verbose && t.status == TestStatus::failed && !t.message.empty()) {
      const std::string key = alike_key(t);
      if (std::find(said.begin(), said.end(), key) != said.end()) {
        ++repeated;
        continue;
      }
      said.push_back(key);
    }
    if (!options.verbose && shown == kMostDetails) {
      ++held_back;
      continue;
    }
    ++shown;
    out += "\n" + paint(display_name(t), Paint::bold) + ": " +
           paint(console_layout::status_word(t.status), console_layout::status_color(t.status)) +
           ", " + points_cell(t) + "\n";
    const TestDetails d = test_details(t, options.verbose);
    // A pass is shown for its GPU lesson only (roofline, transfers vs kernels).
    const bool gpu_lesson_only = !options.verbose && t.status == TestStatus::passed;
    // The comparator's message names the first mismatch and teaches (what NaN means):
    // kept, and the facts that repeat it dropped.
    const bool repeats = message_repeats_mismatch(t);
    if (!t.message.empty() && !gpu_lesson_only) {
      out += wrap(untrusted_text::escape_controls(t.message), width, "    ");
    }
    for (const std::string& fact : d.facts) {
      if (gpu_lesson_only && fact.rfind("Roofline", 0) != 0 && fact.rfind("Hint", 0) != 0 &&
          fact.rfind("GPU time", 0) != 0) {
        continue;
      }
      if (repeats && (fact.rfind("First mismatch", 0) == 0 || fact.ends_with("elements differ"))) {
        continue;
      }
      out += wrap(fact, width, "    ");
    }
    if (t.status == TestStatus::inconclusive) {
      out += wrap("Re-run on a quieter machine: " + rerun_command(r), width, "    ");
    }
    if (!d.stdout_tail.empty()) out += tail_block("stdout (last lines):", d.stdout_tail, width);
    if (!d.stderr_tail.empty()) out += tail_block("stderr (last lines):", d.stderr_tail, width);
  }
  if (repeated > 0) {
    out += "\n" + wrap(std::to_string(repeated) + (repeated == 1 ? " more test" : " more tests") +
                            " failed alike (the same message, or the same task's output array, as a test above)",
                        width, "");
  }
  if (held_back > 0) {
    out += "\n" + wrap("... and " + std::to_string(held_back) + " more " +
                            (held_back == 1 ? "test" : "tests") +
                            " with details in the full report (or run with -v)",
                        width, "");
  }
  return out.empty() ? out : "\n" + paint("Details", Paint::bold) + out;
}

// Without -v, the compiler output of a failed build is cut after this many lines.
constexpr std::size_t kBuildLogLines = 20;

std::string build(const BuildResult& b, const ReportOptions& options, const Paint& paint) {
  const std::size_t width = options.width;
  if (b.ok && b.diagnostics.empty() && !options.verbose) return "";
  std::size_t errors = 0;
  std::size_t warnings = 0;
  for (const Diagnostic& d : b.diagnostics) {
    errors += d.severity == "error";
    warnings += d.severity == "warning";
  }
  std::string title = b.ok ? "Build succeeded"
                      : !b.needs_gpu.empty() ? "Build not possible in the simulator: needs a GPU (" +
                                                   untrusted_text::escape_line(b.needs_gpu) + ")"
                                             : "Build FAILED";
  title += " (" + format_seconds(b.seconds);
  if (errors > 0) title += ", " + std::to_string(errors) + (errors == 1 ? " error" : " errors");
  if (warnings > 0) {
    title += ", " + std::to_string(warnings) + (warnings == 1 ? " warning" : " warnings");
  }
  std::string out = "\n" + paint(title + ")", b.ok ? Paint::bold : Paint::bold_red) + "\n";
  for (const Diagnostic& d : b.diagnostics) out += wrap(diagnostic_line(d), width, "    ");
  if (options.verbose && !b.command.empty()) out += wrap("Command: " + b.command, width, "    ");
  // The compiler's own output shows the code at the error (its snippet and caret), which
  // the one-line diagnostics do not: its first lines when the build failed, all with -v.
  const std::string log = printable(b.log);
  const bool adds_code = b.diagnostics.empty() || log.find(" | ") != std::string::npos;  // gcc's "  5 | code"
  if ((options.verbose || (!b.ok && adds_code)) && !log.empty()) {
    const std::vector<std::string> lines = console_layout::lines_of(log);
    const std::size_t shown = options.verbose ? lines.size() : std::min<std::size_t>(lines.size(), kBuildLogLines);
    out += shown < lines.size() ? "    Compiler output (first " + std::to_string(shown) + " of " +
                                      std::to_string(lines.size()) + " lines; -v for all):\n"
                                : std::string("    Compiler output (capped):\n");
    for (std::size_t i = 0; i < shown; ++i) out += fit_line("      " + lines[i], width) + "\n";
  }
  return out;
}

std::string verdict(const GradeResult& r, const ReportOptions& options, const Paint& paint) {
  const std::size_t width = options.width;
  std::string out = "\n" + std::string(width, '=') + "\n";
  if (!options.full_report.empty()) {
    const std::string with_html = "Report: " + options.full_report + "  (HTML: grade report " +
                                  options.full_report + " --format html -o report.html)";
    out += display_width(with_html) <= width ? with_html + "\n"
                                              : fit_line("Report: " + options.full_report, width) + "\n";
  }
  out += hanging("Next:", next_step(r), width);
  const bool all_passed = std::all_of(r.tests.begin(), r.tests.end(), [](const TestResult& t) {
    return t.status == TestStatus::passed || t.status == TestStatus::not_graded;
  }) && r.build.ok && !r.tests.empty();
  const std::string score = hanging("Total:", graded_summary(r), width);
  out += paint(score.substr(0, score.size() - 1), all_passed ? Paint::bold_green : Paint::bold) + "\n";
  return out;
}

class ConsoleReporter final : public Reporter {
 public:
  explicit ConsoleReporter(const ReportOptions& options) : options_(options) {}

  std::string render(const GradeResult& r) const override {
    const Paint paint(options_.color);
    std::string out = header(r, options_, paint) + "\n";
    out += r.tests.empty() ? std::string("  No tests were run.\n") : table(r, paint, options_.width);
    out += details(r, options_, paint);
    out += build(r.build, options_, paint);
    out += verdict(r, options_, paint);
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
