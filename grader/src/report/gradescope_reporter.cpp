// results.json for Gradescope's autograder (output_format "md"). Gradescope knows
// only "passed" and "failed" and shows the tests' max_score sum beside the assignment's
// total, so the two must agree: tests left out of the graded total (not graded on this
// machine, an inconclusive measurement) are listed with max_score 0 and no status (the
// spec's status is optional: neither a pass nor a red failure), their reason in the
// name, and named in the summary; the rest count in full.
// Partial credit says so. Hidden tests stay hidden until grades are published.
#include <nlohmann/json.hpp>

#include <cmath>

#include "report/markdown_text.hpp"
#include "report/report_text.hpp"
#include "report/reporter.hpp"
#include "report/untrusted_text.hpp"

namespace parlab::grader {
namespace {

using namespace report_text;
using namespace markdown_text;
using Json = nlohmann::ordered_json;  // keeps the spec's field order, for people reading it

const char* gradescope_status(const TestResult& t) {
  return t.status == TestStatus::passed ? "passed" : "failed";
}

std::string status_sentence(const GradeResult& r, const TestResult& t) {
  switch (t.status) {
    case TestStatus::passed: return "";
    case TestStatus::partial: return "**Partial credit:** " + points_cell(t) + " points";
    case TestStatus::failed: return "**Failed:** " + points_cell(t) + " points";
    case TestStatus::skipped: return "**Skipped** (a test it depends on failed): " + points_cell(t) + " points";
    case TestStatus::inconclusive:
      return "**Inconclusive** (" + inconclusive_cause(t) +
             "; 0 of 0 points): this test costs you nothing and "
             "is left out of the graded total; submit again to judge it";
    case TestStatus::not_graded:
      return "**Not graded here** (0 of 0 points: not counted, not lost): " + md_escape(not_graded_reason(r, t));
  }
  return "";
}

// The test's page: its status spelled out, the message (fenced: it may quote the
// submission), the facts as a list and the output tails fenced.
std::string test_output(const GradeResult& r, const TestResult& t, bool verbose) {
  std::string out = status_sentence(r, t);
  if (!out.empty()) out += "\n\n";
  const TestDetails d = test_details(t, verbose);
  // A not-graded test's message is the reason just said.
  if (!t.message.empty() && t.status != TestStatus::not_graded) out += md_code_block(t.message) + "\n";
  for (const std::string& fact : d.facts) out += "- " + md_escape(fact) + "\n";
  if (!d.stdout_tail.empty()) out += "\nstdout (last lines):\n\n" + md_code_block(d.stdout_tail);
  if (!d.stderr_tail.empty()) out += "\nstderr (last lines):\n\n" + md_code_block(d.stderr_tail);
  return out;
}

Json tags_of(const TestResult& t) {
  Json tags = Json::array({to_string(t.kind)});
  if (t.status == TestStatus::inconclusive) tags.push_back("inconclusive");
  if (t.status == TestStatus::not_graded) tags.push_back("not-graded");
  if (is_hidden(t)) tags.push_back("hidden");
  return tags;
}

std::string summary(const GradeResult& r, bool verbose) {
  std::string out = "## " + md_escape(r.lab_id + ": " + r.lab_title) + "\n\n";
  out += "**Total: " + md_escape(graded_summary(r)) + "**\n\n";
  std::string not_graded;
  for (const TestResult& t : r.tests) {
    if (t.status != TestStatus::not_graded) continue;
    not_graded += "- " + md_code(t.name) + " (" + format_points(t.max_points) + " points): " +
                  md_escape(not_graded_reason(r, t)) + "\n";
  }
  if (!not_graded.empty()) {
    out += "Not graded on this machine (not counted, not lost):\n\n" + not_graded + "\n";
  }
  if (r.reference_mode) out += "REFERENCE MODE: the reference solution graded as a submission\n\n";
  if (ran_any_test(r)) {  // a rejected or unbuilt submission used no data: no seed to repeat
    out += "Fresh seed: " + std::to_string(r.fresh_seed) + " (repeat with `--seed " +
           std::to_string(r.fresh_seed) + "`)\n\n";
  }
  if (!r.performance_enabled) out += "Performance: not measured in this grading\n\n";
  for (const std::string& note : r.notes) out += "> **Note:** " + md_cell(note) + "\n\n";
  if (!r.build.ok || !r.build.diagnostics.empty() || verbose) {
    out += "### Build\n\n" + md_code_block(plain_build_report(r.build, verbose));
  }
  return out;
}

class GradescopeReporter final : public Reporter {
 public:
  explicit GradescopeReporter(const ReportOptions& options) : options_(options) {}

  std::string render(const GradeResult& r) const override {
    Json tests = Json::array();
    // A test left out of the total carries no status: Gradescope then shows neither a
    // pass nor a failure, and its 0 of 0 points agree with its text.
    double score = 0;  // the sum of what the tests show, so the page adds up
    int number = 0;
    for (const TestResult& t : r.tests) {
      ++number;
      const bool left_out = is_left_out(t);  // 0 of 0: costs nothing, counts nothing
      const double points = left_out ? 0.0 : t.points;
      score += points;
      std::string name = t.name;
      if (t.status == TestStatus::inconclusive) name += " (inconclusive: re-run)";
      if (t.status == TestStatus::not_graded) name += " (not graded here: " + not_graded_reason(r, t) + ")";
      Json test = {{"name", name},
                   {"number", std::to_string(number)},
                   {"score", points},
                   {"max_score", left_out ? 0.0 : t.max_points}};
      if (!left_out) test["status"] = gradescope_status(t);
      test["tags"] = tags_of(t);
      test["output"] = test_output(r, t, options_.verbose);
      test["output_format"] = "md";
      test["visibility"] = is_hidden(t) ? "after_published" : "visible";
      tests.push_back(std::move(test));
    }
    Json doc = {{"score", score},
                {"execution_time", std::llround(r.seconds)},
                {"output", summary(r, options_.verbose)},
                {"output_format", "md"},
                {"test_output_format", "md"},
                {"visibility", "visible"},
                {"stdout_visibility", "hidden"},
                {"tests", std::move(tests)}};
    if (!options_.leaderboard.empty()) doc["leaderboard"] = leaderboard(r);
    return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
  }

 private:
  // The speed ratio of each performance test the lab names for its leaderboard.
  Json leaderboard(const GradeResult& r) const {
    Json board = Json::array();
    for (const std::string& name : options_.leaderboard) {
      for (const TestResult& t : r.tests) {
        if (t.name != name || !t.measurement || t.status == TestStatus::not_graded ||
            t.status == TestStatus::inconclusive) {
          continue;
        }
        board.push_back({{"name", t.name}, {"value", std::round(t.measurement->median_ratio * 100) / 100},
                         {"order", "desc"}});
      }
    }
    return board;
  }

  ReportOptions options_;
};

}  // namespace

std::unique_ptr<Reporter> make_gradescope_reporter(const ReportOptions& options) {
  return std::make_unique<GradescopeReporter>(options);
}

}  // namespace parlab::grader
