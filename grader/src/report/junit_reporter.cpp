// JUnit XML for CI dashboards: one <testcase> per test plus one for the build, so a
// compile error shows up as a failed case instead of an empty suite.
#include <cstdio>

#include "report/report_text.hpp"
#include "report/untrusted_text.hpp"
#include "report/reporter.hpp"

namespace parlab::grader {
namespace {

using namespace report_text;

// Escapes markup characters (quotes only in attributes, where they delimit); controls,
// invalid UTF-8 and what XML 1.0 cannot hold at all are shown escaped (untrusted_text).
// In attributes, whitespace controls are written as character references so parsers keep them.
std::string xml_escape(std::string_view raw, bool attribute) {
  // Controls and invalid UTF-8 are shown escaped (\x1b), like every other format.
  const std::string text = untrusted_text::xml_legal(untrusted_text::escape_controls(raw));
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == 0xEF && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0xBF &&
        static_cast<unsigned char>(text[i + 2]) >= 0xBE) {
      i += 2;  // U+FFFE or U+FFFF
      continue;
    }
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += attribute ? "&quot;" : "\""; break;
      case '\'': out += attribute ? "&apos;" : "'"; break;
      case '\n': out += attribute ? "&#10;" : "\n"; break;
      case '\r': out += "&#13;"; break;  // parsers would fold a raw CR
      case '\t': out += attribute ? "&#9;" : "\t"; break;
      default:
        if (c >= 0x20) out += static_cast<char>(c);  // other C0 controls are illegal
    }
  }
  return out;
}

std::string attr(std::string_view name, std::string_view value) {
  return " " + std::string(name) + "=\"" + xml_escape(value, true) + "\"";
}

std::string seconds_attr(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", seconds);
  return attr("time", buffer);
}

bool is_failure(TestStatus s) { return s == TestStatus::failed || s == TestStatus::partial; }
// Inconclusive and not graded here are skips: nothing the student did, and never red.
bool is_skip(TestStatus s) {
  return s == TestStatus::skipped || s == TestStatus::inconclusive || s == TestStatus::not_graded;
}

std::string property(std::string_view name, std::string_view value) {
  return "      <property" + attr("name", name) + attr("value", value) + "/>\n";
}

std::string properties(const GradeResult& r) {
  std::string out = "    <properties>\n";
  out += property("lab_title", r.lab_title);
  out += property("submission", r.submission);
  out += property("score", format_points(r.score));
  out += property("max_score", format_points(r.max_score));
  out += property("graded_max_score", format_points(r.graded_max_score));
  out += property("total", graded_summary(r));
  out += property("fresh_seed", std::to_string(r.fresh_seed));
  out += property("reference_mode", r.reference_mode ? "true" : "false");
  out += property("performance_enabled", r.performance_enabled ? "true" : "false");
  out += property("started_at", r.started_at);
  out += property("grader_version", r.grader_version);
  out += property("host", r.host.hostname + ", " + std::to_string(r.host.cores) + " cores" +
                              (r.host.gpu.empty() ? "" : ", GPU: " + r.host.gpu));
  out += property("sandbox", r.host.sandbox);
  for (const std::string& note : r.notes) out += property("note", note);
  return out + "    </properties>\n";
}

std::string build_case(const GradeResult& r, bool verbose) {
  std::string out = "    <testcase" + attr("classname", "parlab." + r.lab_id) + attr("name", "build") +
                    seconds_attr(r.build.seconds);
  if (r.build.ok && !verbose) return out + "/>\n";
  out += ">\n";
  const std::string report = plain_build_report(r.build, verbose);
  if (!r.build.ok) {
    out += "      <failure" + attr("message", "the build failed") + attr("type", "build") + ">" +
           xml_escape(report, false) + "</failure>\n";
  } else {
    out += "      <system-out>" + xml_escape(report, false) + "</system-out>\n";
  }
  return out + "    </testcase>\n";
}

std::string test_case(const GradeResult& r, const TestResult& t, bool verbose) {
  std::string out = "    <testcase" + attr("classname", "parlab." + r.lab_id) + attr("name", t.name) +
                    seconds_attr(t.seconds);
  const TestDetails d = test_details(t, verbose);
  std::string body;
  if (is_failure(t.status)) {
    std::string text = "Points: " + points_cell(t) + "\n";
    for (const std::string& fact : d.facts) text += fact + "\n";
    body += "      <failure" + attr("message", t.message) + attr("type", to_string(t.status)) +
            ">" + xml_escape(text, false) + "</failure>\n";
  } else if (is_skip(t.status)) {
    // Skip messages usually say "skipped: why" already; inconclusive ones do not.
    std::string message = t.message.empty() ? to_string(t.status) : t.message;
    if (t.status == TestStatus::inconclusive) {
      message = "inconclusive (" + short_reason(r, t) + "): " + message;
    } else if (t.status == TestStatus::not_graded) {
      // The grader's message often starts with these words already: said once.
      const std::string_view said = "not graded here: ";
      if (message.rfind(said, 0) == 0) message.erase(0, said.size());
      message = "not graded here (" + not_graded_reason(r, t) + "): " + message;
    }
    body += "      <skipped" + attr("message", message) + "/>\n";
  }
  if (!d.stdout_tail.empty()) body += "      <system-out>" + xml_escape(d.stdout_tail, false) + "</system-out>\n";
  if (!d.stderr_tail.empty()) body += "      <system-err>" + xml_escape(d.stderr_tail, false) + "</system-err>\n";
  return body.empty() ? out + "/>\n" : out + ">\n" + body + "    </testcase>\n";
}

class JunitReporter final : public Reporter {
 public:
  explicit JunitReporter(const ReportOptions& options) : options_(options) {}

  std::string render(const GradeResult& r) const override {
    std::size_t failures = r.build.ok ? 0 : 1;
    std::size_t skipped = 0;
    for (const TestResult& t : r.tests) {
      failures += is_failure(t.status);
      skipped += is_skip(t.status);
    }
    const std::string counts = attr("tests", std::to_string(r.tests.size() + 1)) +
                               attr("failures", std::to_string(failures)) + attr("errors", "0") +
                               attr("skipped", std::to_string(skipped)) + seconds_attr(r.seconds);
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += "<testsuites" + attr("name", "parlab") + counts + ">\n";
    out += "  <testsuite" + attr("name", r.lab_id) + counts + ">\n";
    out += properties(r);
    out += build_case(r, options_.verbose);
    for (const TestResult& t : r.tests) out += test_case(r, t, options_.verbose);
    out += "  </testsuite>\n</testsuites>\n";
    return out;
  }

 private:
  ReportOptions options_;
};

}  // namespace

std::unique_ptr<Reporter> make_junit_reporter(const ReportOptions& options) {
  return std::make_unique<JunitReporter>(options);
}

}  // namespace parlab::grader
