#include "batch/collect.hpp"

#include <algorithm>

#include "batch/class_summary.hpp"
#include "batch/gradebook.hpp"
#include "batch/late_record.hpp"
#include "batch/regrade_marker.hpp"
#include "batch/student_reports.hpp"
#include "batch/run_facts.hpp"
#include "util/atomic_write.hpp"

namespace parlab::grader::batch {

std::vector<StudentRecord> load_records(const BatchLayout& layout, const BatchManifest& m) {
  std::vector<StudentRecord> records;
  for (const ManifestStudent& s : m.students) records.push_back(load_record(layout, s));
  // A group member's row is the submitter's record under the member's own id and name.
  for (const ManifestStudent& s : m.group_members) {
    StudentRecord r;
    for (const StudentRecord& from : records) {
      if (from.student.id == s.group_of) r = from;
    }
    const std::string why = record_reason(r);
    r.student = s;
    r.reason = "group submission of " + s.group_of + (why.empty() ? "" : ": " + why);
    records.push_back(r);
  }
  for (const ManifestStudent& s : m.missing) {
    StudentRecord r;
    r.student = s;
    r.status = StudentStatus::missing;
    records.push_back(r);
  }
  std::sort(records.begin(), records.end(),
            [](const StudentRecord& a, const StudentRecord& b) { return a.student.id < b.student.id; });
  return records;
}

namespace {

// The course file `grade batch --course` kept in the folder; nothing without one.
std::optional<CourseDeadlines> course_of(const BatchLayout& layout) {
  if (!std::filesystem::exists(layout.course_file())) return std::nullopt;
  return read_course_deadlines(layout.course_file());
}

// Each graded student's late.json and own reports: why points were (or were not)
// deducted. Without a course file the reports are written plain again (a run without
// --course drops the late policy).
void write_late_records(const BatchLayout& layout, const CourseDeadlines* course,
                        const std::vector<StudentRecord>& records) {
  for (const StudentRecord& r : records) {
    if (!r.result || !r.student.group_of.empty()) continue;
    if (!std::filesystem::is_directory(layout.student_dir(r.student.id))) continue;
    if (!course) {
      write_student_reports(layout, r, nullptr);
      continue;
    }
    const LateRecord late = late_record(*course, r);
    write_file_atomically(layout.late_file(r.student.id), late_record_json_text(late));
    write_student_reports(layout, r, &late);
  }
  if (course) write_file_atomically(layout.late_report(), late_report_markdown(*course, records));
}

}  // namespace

CollectCounts collect_batch(const BatchLayout& layout) {
  BatchManifest m = read_manifest(layout.manifest());
  std::vector<StudentRecord> records = load_records(layout, m);
  CollectCounts c;
  for (const StudentRecord& r : records) {
    if (!r.student.group_of.empty()) continue;  // counted with the group's submission
    ++c.students;
    if (r.result) ++c.finished;
    if (r.status == StudentStatus::error) ++c.errors;
    if (r.status == StudentStatus::pending) ++c.pending;
    if (r.status == StudentStatus::missing) ++c.missing;
  }
  if (std::optional<std::string> token = pending_regrade(layout)) {
    bool all_done = true;
    for (const StudentRecord& r : records) {
      if (r.status == StudentStatus::missing) continue;
      if (!r.result) all_done = false;
      else if (r.regrade_token != *token) ++c.regrade_left;
    }
    if (all_done && c.regrade_left == 0) finish_regrade(layout);
  }
  nlohmann::json summary = class_summary(m, records);
  // The last grading run's own facts (batch/run_facts.hpp); null before any.
  const std::optional<nlohmann::json> last_run = read_run_facts(layout.out);
  summary["last_run"] = last_run ? *last_run : nlohmann::json(nullptr);
  const std::optional<CourseDeadlines> course = course_of(layout);
  write_late_records(layout, course ? &*course : nullptr, records);
  if (!course) std::filesystem::remove(layout.late_report());
  write_file_atomically(layout.gradebook(), gradebook_csv(m, records, course ? &*course : nullptr));
  write_file_atomically(layout.summary_json(), summary.dump(2) + "\n");
  write_file_atomically(layout.summary_markdown(), class_summary_markdown(summary));
  write_file_atomically(layout.summary_html(), class_summary_html(summary));
  return c;
}

}  // namespace parlab::grader::batch
