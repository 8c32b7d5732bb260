#pragma once
// Wording and number formats shared by the human-facing reporters, so the console,
// Markdown, Gradescope and JUnit reports teach with the same sentences. This is
// also the one place that decides what a hidden test may reveal.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "result/result.hpp"

namespace parlab::grader::report_text {

// Numbers.
std::string format_points(double points);        // up to 2 decimals: "37.5", "100", "3.33"
std::string format_value(double value);          // %.6g; "NaN", "inf", "-inf"
std::string format_seconds(double seconds);      // "0.8123 s"
std::string format_ratio(const Measurement& m);  // "1.42x ±6%"
std::string points_cell(const TestResult& t);    // "7.5 / 15"; "- / 8" when left out (not counted)
std::string total_line(const GradeResult& r);    // "Total: 37.5 / 100"

// Gradable vs total (the statuses, shown by every reporter).
bool is_left_out(const TestResult& t);  // not_graded or inconclusive: not in the graded total
// Why a not_graded test could not be graded here, in a few words: "need a GPU",
// "not measured (--no-perf)", "need 8 cores (4 here)", else its message's first line.
std::string not_graded_reason(const GradeResult& r, const TestResult& t);
// Left out because the submission's own code stopped the simulator at a feature it does
// not run (grading/unsupported_feature): a per-student condition, settled on a GPU.
bool stopped_at_unsupported_feature(const TestResult& t);
// "60 / 60 graded here; 40 points of GPU tests need a GPU" or "37.5 / 100".
std::string graded_summary(const GradeResult& r);
// The parts after the score: "40 points need a GPU", "10 points inconclusive (machine
// busy): re-run"; empty when everything was graded.
std::vector<std::string> left_out_sentences(const GradeResult& r);
// Whether any test ran (a rejected or unbuilt submission ran none: its seed means nothing).
bool ran_any_test(const GradeResult& r);
// "grade lab01 DIR --seed 42": the command that repeats this grading.
std::string rerun_command(const GradeResult& r);
// A measured test's row text: "1.42x (none at 1.1x, full at 2x)".
std::string ratio_against_band(const Measurement& m);
// A counter check's figure against its band: "2062 (16x the reference's; full at 2x, none at 8x)".
std::string counter_against_band(const CounterMeasurement& c);
// What to do next, in one line: the first thing that costs points ("fix the build
// error in kernels.cu", "fix X first", "speed up Y: 1.2x now, full credit at 2x").
std::string next_step(const GradeResult& r);
// Why an inconclusive test was not judged: "machine busy" or "the reference failed on
// this machine".
std::string inconclusive_cause(const TestResult& t);
// The one short reason of a test's table row (empty for a plain pass).
std::string short_reason(const GradeResult& r, const TestResult& t);

// Words.
std::string describe_outcome(RunOutcome outcome);  // "crashed (killed by a signal)"
std::string diagnostic_line(const Diagnostic& d);  // "file:line:col: error: message"
std::string display_name(const TestResult& t);     // name, "(hidden)" appended when hidden
std::string device_line(const DeviceInfo& d);      // GPU labs: "NVIDIA H100 ..." / "simulator ..."
bool is_hidden(const TestResult& t);

// What a reader may learn about one test beyond its table row. A hidden test keeps
// its data secret: no mismatch values, tails or dataset, only how the run ended.
struct TestDetails {
  std::vector<std::string> facts;  // one sentence each
  std::string stdout_tail;         // printable(), empty when hidden or absent
  std::string stderr_tail;
};
TestDetails test_details(const TestResult& t, bool verbose);

// Whether a test deserves a details entry: not passed (or verbose) and there is
// something the table row did not already say.
bool needs_details(const TestResult& t, bool verbose, std::size_t table_message_width);

// Plain text blocks for formats without layout (Gradescope output, JUnit bodies).
std::string plain_test_details(const TestResult& t, bool verbose);  // message, facts, tails
std::string plain_build_report(const BuildResult& b, bool verbose);  // diagnostics + log

// Text safety. Student output may hold any bytes.
std::string valid_utf8(std::string_view text);  // invalid sequences -> U+FFFD
// untrusted_text::escape_controls without trailing newlines: controls and invalid
// UTF-8 shown as \xNN (C1 as \u0080..), never sent raw.
std::string printable(std::string_view text);
std::size_t display_width(std::string_view utf8);  // code points
// The first line, cut to `max_width` code points with "..." when longer.
std::string first_line_fitted(std::string_view text, std::size_t max_width);
std::string indent(std::string_view text, std::string_view prefix);  // prefix on each line
// Word-wrapped to `width` code points, each line starting with `prefix` (counted in
// the width); a word longer than a line is cut hard.
std::string wrap(std::string_view text, std::size_t width, std::string_view prefix);

}  // namespace parlab::grader::report_text
