// results.json for Gradescope's autograder. Gradescope knows only "passed" and
// "failed", so partial credit, skips and inconclusive measurements say what they are
// in the test's output; hidden tests stay hidden until grades are published.
#include <nlohmann/json.hpp>

#include <cmath>

#include "report/report_text.hpp"
#include "report/untrusted_text.hpp"
#include "report/reporter.hpp"

namespace parlab::grader {
namespace {

using namespace report_text;
using Json = nlohmann::ordered_json;  // keeps the spec's field order, for people reading it

const char* gradescope_status(const TestResult& t) {
  switch (t.status) {
    case TestStatus::passed: return "passed";
    case TestStatus::skipped:
    case TestStatus::inconclusive:
    case TestStatus::not_graded:
      // Not the student's failure, but only a full score may show as a pass.
      return t.points >= t.max_points ? "passed" : "failed";
    case TestStatus::partial:
    case TestStatus::failed: return "failed";
  }
  return "failed";
}

// Gradescope shows only passed/failed, so every other status is spelled out first.
std::string test_output(const TestResult& t, bool verbose) {
  std::string out;
  if (t.status != TestStatus::passed) {
    out = "Status: " + std::string(to_string(t.status));
    if (t.status == TestStatus::inconclusive) out += " (the measurement was too noisy to judge)";
    out += ", " + points_cell(t) + " points\n";
  }
  return out + plain_test_details(t, verbose);
}

std::string summary(const GradeResult& r, bool verbose) {
  std::string out = r.lab_id + ": " + r.lab_title + "\n" + total_line(r) + "\n";
  if (r.reference_mode) out += "REFERENCE MODE: the reference solution graded as a submission\n";
  out += "Fresh seed: " + std::to_string(r.fresh_seed) + " (repeat with --seed " +
         std::to_string(r.fresh_seed) + ")\n";
  if (!r.performance_enabled) out += "Performance: not measured in this grading\n";
  for (const std::string& note : r.notes) out += "NOTE: " + untrusted_text::escape_controls(note) + "\n";
  if (!r.build.ok || !r.build.diagnostics.empty() || verbose) {
    out += "\n" + plain_build_report(r.build, verbose);
  }
  return out;
}

class GradescopeReporter final : public Reporter {
 public:
  explicit GradescopeReporter(const ReportOptions& options) : options_(options) {}

  std::string render(const GradeResult& r) const override {
    Json tests = Json::array();
    double score = 0;  // the sum of what the tests show, so the page adds up
    for (const TestResult& t : r.tests) {
      score += t.points;
      tests.push_back({{"name", t.name},
                       {"score", t.points},
                       {"max_score", t.max_points},
                       {"status", gradescope_status(t)},
                       {"output", test_output(t, options_.verbose)},
                       {"visibility", is_hidden(t) ? "after_published" : "visible"}});
    }
    Json doc = {{"score", score},
                {"execution_time", std::llround(r.seconds)},
                {"output", summary(r, options_.verbose)},
                {"visibility", "visible"},
                {"stdout_visibility", "hidden"},
                {"tests", std::move(tests)}};
    return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
  }

 private:
  ReportOptions options_;
};

}  // namespace

std::unique_ptr<Reporter> make_gradescope_reporter(const ReportOptions& options) {
  return std::make_unique<GradescopeReporter>(options);
}

}  // namespace parlab::grader
