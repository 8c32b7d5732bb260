// The student's HTML report, rendered from the canonical result like every format:
// the verdict first (total, what was graded here, what to do next), the test table,
// one card per performance test with its speed ratio drawn against the zero/full
// credit band (95 % interval, every pair), the observed cores and processes, the
// roofline point and transfer/kernel split of GPU tests, then what failed, and the
// build. One self-contained file (html_page.hpp).
#include <string>

#include "report/html_page.hpp"
#include "report/report_text.hpp"
#include "report/reporter.hpp"
#include "report/untrusted_text.hpp"
#include "util/number_format.hpp"

namespace parlab::grader {
namespace {

using namespace report_text;
using html::escape;

std::string header(const GradeResult& r) {
  std::string out = "<h1>" + escape(r.lab_id + ": " + r.lab_title) + "</h1>\n<div class=\"meta\">";
  out += "<span>Submission: <code>" + escape(r.submission) + "</code></span>";
  if (r.reference_mode) out += "<span><b>REFERENCE MODE</b></span>";
  out += "<span>" + escape(r.host.hostname) + ", " + std::to_string(r.host.cores) + " cores</span>";
  if (r.device.mode != DeviceMode::host) out += "<span>Device: " + escape(device_line(r.device)) + "</span>";
  out += "<span>seed " + std::to_string(r.fresh_seed) + "</span><span>" + escape(r.started_at) +
         "</span><span>took " + escape(format_seconds(r.seconds)) + "</span></div>\n";
  for (const std::string& note : r.notes) out += "<div class=\"note\">" + escape(note) + "</div>\n";
  if (!r.interrupted.empty()) out += "<div class=\"note\"><b>Incomplete:</b> " + escape(r.interrupted) + "</div>\n";
  return out;
}

std::string verdict(const GradeResult& r) {
  bool any_failed = !r.build.ok;
  bool all_passed = r.build.ok && !r.tests.empty();
  for (const TestResult& t : r.tests) {
    any_failed = any_failed || t.status == TestStatus::failed || t.status == TestStatus::partial;
    all_passed = all_passed && (t.status == TestStatus::passed || t.status == TestStatus::not_graded);
  }
  std::string out = std::string("<section class=\"verdict") + (all_passed ? " good" : any_failed ? " bad" : "") +
                    "\" id=\"verdict\">\n<div class=\"total\" data-score=\"" + format_points(r.score) +
                    "\" data-graded-max=\"" + format_points(r.graded_max_score) + "\" data-max=\"" +
                    format_points(r.max_score) + "\">" + format_points(r.score) + " / " +
                    format_points(r.graded_max_score < r.max_score ? r.graded_max_score : r.max_score);
  if (r.graded_max_score < r.max_score) out += " graded here <span class=\"left-out\">(" + format_points(r.max_score) + " in all)</span>";
  out += "</div>\n";
  for (const std::string& s : left_out_sentences(r)) out += "<div class=\"left-out\">" + escape(s) + "</div>\n";
  out += "<div class=\"next\"><b>Next:</b> " + escape(next_step(r)) + "</div>\n";
  return out + "</section>\n";
}

std::string table(const GradeResult& r) {
  std::string out = "<h2>Tests</h2>\n<table id=\"tests\">\n<tr><th>Status</th><th class=\"points\">Points</th>"
                    "<th>Test</th><th>Result</th></tr>\n";
  for (const TestResult& t : r.tests) {
    out += "<tr data-test=\"" + escape(t.name) + "\"><td>" + html::status_badge(t.status) +
           "</td><td class=\"points\">" + escape(points_cell(t)) + "</td><td>" + escape(display_name(t)) +
           "</td><td>" + escape(short_reason(r, t)) + "</td></tr>\n";
  }
  return out + "</table>\n";
}

std::string facts_list(const std::vector<std::string>& facts) {
  if (facts.empty()) return "";
  std::string out = "<ul>\n";
  for (const std::string& f : facts) out += "<li>" + escape(f) + "</li>\n";
  return out + "</ul>\n";
}

// Charts for a test that was measured: its ratio band, roofline and GPU phases.
std::string performance_card(const GradeResult& r, const TestResult& t) {
  std::string out = "<div class=\"card perf\" data-test=\"" + escape(t.name) + "\">\n<h3>" +
                    escape(display_name(t)) + " " + html::status_badge(t.status) + " " +
                    escape(points_cell(t)) + "</h3>\n<div class=\"charts\">\n";
  if (t.measurement && t.measurement->median_ratio > 0) out += html::ratio_band_svg(*t.measurement) + "\n";
  if (t.roofline) out += html::roofline_svg(*t.roofline) + "\n";
  if (t.phases.size() > 1) out += html::phases_svg(t.phases) + "\n";  // a split needs two parts
  out += "</div>\n";
  if (!t.message.empty()) out += "<p class=\"message\">" + escape(t.message) + "</p>\n";
  out += facts_list(test_details(t, false).facts);
  if (t.status == TestStatus::inconclusive) {
    out += "<p>Re-run on a quieter machine: <code>" + escape(rerun_command(r)) + "</code></p>\n";
  }
  return out + "</div>\n";
}

std::string performance(const GradeResult& r) {
  std::string out;
  for (const TestResult& t : r.tests) {
    if (is_hidden(t)) continue;
    if ((t.measurement && t.measurement->median_ratio > 0) || t.roofline || !t.phases.empty()) {
      out += performance_card(r, t);
    }
  }
  return out.empty() ? "" : "<h2>Performance</h2>\n" + out;
}

std::string failures(const GradeResult& r) {
  std::string out;
  for (const TestResult& t : r.tests) {
    if (t.status != TestStatus::failed || t.outcome == RunOutcome::not_run) continue;
    if (t.measurement && t.measurement->median_ratio > 0) continue;  // its card says it
    const TestDetails d = test_details(t, false);
    out += "<div class=\"card failure\" data-test=\"" + escape(t.name) + "\">\n<h3>" +
           escape(display_name(t)) + " " + html::status_badge(t.status) + " " + escape(points_cell(t)) +
           "</h3>\n";
    if (!t.message.empty()) out += "<p class=\"message\">" + escape(t.message) + "</p>\n";
    out += facts_list(d.facts);
    if (!d.stdout_tail.empty()) out += "<div>stdout (last lines):</div><pre>" + escape(d.stdout_tail) + "</pre>\n";
    if (!d.stderr_tail.empty()) out += "<div>stderr (last lines):</div><pre>" + escape(d.stderr_tail) + "</pre>\n";
    out += "</div>\n";
  }
  return out.empty() ? "" : "<h2>What failed</h2>\n" + out;
}

std::string build(const BuildResult& b) {
  if (b.ok && b.diagnostics.empty()) return "";
  std::string out = "<h2>Build</h2>\n<div class=\"card build\">\n<pre>" +
                    escape(plain_build_report(b, false)) + "</pre>\n</div>\n";
  return out;
}

class HtmlReporter final : public Reporter {
 public:
  explicit HtmlReporter(const ReportOptions& options) : options_(options) {}

  std::string render(const GradeResult& r) const override {
    std::string body = header(r) + verdict(r);
    body += r.tests.empty() ? "<p>No tests were run.</p>\n" : table(r);
    body += performance(r) + failures(r) + build(r.build);
    body += "<p class=\"meta\">parlab " + escape(r.grader_version) +
            " &middot; rendered from the canonical result.json (<code>grade report RESULT --format html</code>)</p>\n";
    return html::page(r.lab_id + " report: " + format_points(r.score) + " / " + format_points(r.max_score), body);
  }

 private:
  ReportOptions options_;
};

}  // namespace

std::unique_ptr<Reporter> make_html_reporter(const ReportOptions& options) {
  return std::make_unique<HtmlReporter>(options);
}

}  // namespace parlab::grader
