// The late outcome in a student's own reports: the Markdown section and Gradescope's
// results.json, whose top-level score is the final one.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "batch/student_reports.hpp"

using namespace parlab::grader::batch;
using Catch::Matchers::Contains;

namespace {

LateRecord deducted() {
  LateRecord l;
  l.raw_score = 80;
  l.submitted_at = "2026-03-03T05:04:00Z";
  l.submitted_from = "newest entry in the archive";
  l.due = "2026-03-02T04:59:00Z";
  l.lateness = "1 day 5 min";
  l.penalty_percent = 20;
  l.final_score = 64;
  l.reason = "submitted 1 day 5 min late (2 started days at 10 % a day): 20 % of the score deducted";
  return l;
}

}  // namespace

TEST_CASE("the late section says the raw score, the times, the lateness, the penalty, the final score and why") {
  const std::string s = late_section_markdown(deducted(), 90);
  CHECK_THAT(s, Contains("**Raw score:** 80 / 90"));
  CHECK_THAT(s, Contains("2026-03-03T05:04:00Z (newest entry in the archive)"));
  CHECK_THAT(s, Contains("**Lateness:** 1 day 5 min"));
  CHECK_THAT(s, Contains("**Penalty:** 20 %"));
  CHECK_THAT(s, Contains("**Final score:** 64 / 90"));
  CHECK_THAT(s, Contains("2 started days at 10 % a day"));

  LateRecord unknown = deducted();
  unknown.submitted_at.clear();
  unknown.lateness = "unknown";
  unknown.penalty_percent.reset();
  unknown.final_score.reset();
  const std::string u = late_section_markdown(unknown, 90);
  CHECK_THAT(u, Contains("**Submitted:** unknown"));
  CHECK_THAT(u, Contains("**Final score:** not decided"));
}

TEST_CASE("Gradescope's score becomes the final score, its tests keep their raw points") {
  const std::string raw = R"({"score": 80, "output": "## lab01\n", "tests": [{"score": 80, "max_score": 90}]})";
  const auto doc = nlohmann::json::parse(with_late_outcome(raw, deducted(), 90));
  CHECK(doc["score"] == 64);
  CHECK(doc["tests"][0]["score"] == 80);
  CHECK_THAT(doc["output"].get<std::string>(), Contains("**Final score:** 64 / 90"));
  CHECK_THAT(doc["output"].get<std::string>(), Contains("## lab01"));

  LateRecord unknown = deducted();
  unknown.final_score.reset();  // nobody decided yet: Gradescope keeps the raw score
  CHECK(nlohmann::json::parse(with_late_outcome(raw, unknown, 90))["score"] == 80);
}
