#include "batch/late_record.hpp"

#include <nlohmann/json.hpp>

#include "batch/gradebook.hpp"
#include "batch/submission_time.hpp"
#include "report/untrusted_text.hpp"

namespace parlab::grader::batch {

LateRecord late_record(const CourseDeadlines& course, const StudentRecord& r) {
  LateRecord late;
  const ManifestStudent& s = r.student;
  late.submitted_from = s.submitted_from;
  if (s.submitted_at) late.submitted_at = format_utc(*s.submitted_at);
  const std::int64_t due = course.due_for(s.id, s.section);
  late.due = format_utc(due);
  if (!r.result) return late;  // nothing graded: nothing to deduct from
  late.raw_score = r.result->score;
  if (!s.submitted_at) {
    // Unknown is not on time: no final score until someone decides.
    late.lateness = "unknown";
    late.reason = "submission time unknown (" + s.submitted_from + "): lateness not checked";
    return late;
  }
  const LateOutcome o = apply_late_policy(course.policy, due, *s.submitted_at, r.result->score);
  late.lateness = o.late_seconds == 0 ? "on time" : describe_lateness(o.late_seconds);
  late.penalty_percent = o.past_cutoff ? 100.0 : o.penalty_percent;
  late.final_score = o.final_score;
  late.reason = o.reason;
  return late;
}

std::string late_cells(const LateRecord& l) {
  auto number = [](const std::optional<double>& v) { return v ? format_points(*v) : std::string(); };
  return "," + number(l.raw_score) + "," + csv_field(l.submitted_at) + "," + csv_field(l.submitted_from) +
         "," + csv_field(l.lateness) + "," + number(l.penalty_percent) + "," + number(l.final_score) + "," +
         csv_field(l.reason);
}

std::string late_record_json_text(const LateRecord& l) {
  nlohmann::json j = {{"submitted_at", l.submitted_at}, {"submitted_from", l.submitted_from},
                      {"due", l.due},                   {"lateness", l.lateness},
                      {"reason", l.reason}};
  j["raw_score"] = l.raw_score ? nlohmann::json(*l.raw_score) : nlohmann::json(nullptr);
  j["penalty_percent"] = l.penalty_percent ? nlohmann::json(*l.penalty_percent) : nlohmann::json(nullptr);
  j["final_score"] = l.final_score ? nlohmann::json(*l.final_score) : nlohmann::json(nullptr);
  return j.dump(2) + "\n";
}

std::string late_report_markdown(const CourseDeadlines& course, const std::vector<StudentRecord>& records) {
  std::string out = "# Late submissions\n\n";
  int listed = 0;
  for (const StudentRecord& r : records) {
    const LateRecord l = late_record(course, r);
    if (l.reason.empty()) continue;
    out += "- " + untrusted_text::escape_line(r.student.id) + ": " +
           (l.final_score ? format_points(*l.raw_score) + " -> " + format_points(*l.final_score) + " points: "
                          : std::string()) +
           l.reason + "\n";
    ++listed;
  }
  if (listed == 0) out += "No points deducted; every graded submission's time is known.\n";
  return out;
}

}  // namespace parlab::grader::batch
