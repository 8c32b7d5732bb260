#pragma once
// The late policy applied to one student's record: what the gradebook's late columns,
// the student's late.json and the class summary say. Computed when the gradebook is
// built, from the course file kept in the output folder, so a changed course file
// needs only `grade batch --collect`, no regrade.
#include <optional>
#include <string>
#include <vector>

#include "batch/course_deadlines.hpp"
#include "batch/student_record.hpp"

namespace parlab::grader::batch {

struct LateRecord {
  std::optional<double> raw_score;     // nothing without a result
  std::string submitted_at;            // "2026-03-01T23:59:00Z", "" when unknown
  std::string submitted_from;          // where the time came from, or why it is unknown
  std::string due;                     // the student's due time (extension included)
  std::string lateness;                // "on time", "1 day 2 h 5 min", "unknown"
  std::optional<double> penalty_percent;
  std::optional<double> final_score;   // nothing when the submission time is unknown
  std::string reason;                  // the policy's words; "" when nothing was deducted
};

LateRecord late_record(const CourseDeadlines& course, const StudentRecord& record);

// The gradebook's extra columns with --course, in this order.
constexpr const char* kLateColumns = "raw_score,submitted_at,submitted_from,lateness,penalty_percent,final_score,late_reason";
std::string late_cells(const LateRecord& late);  // the same columns, ',' first

std::string late_record_json_text(const LateRecord& late);

// OUT/late.md: every student whose points were cut, or whose time is unknown, with the
// policy's reason; one line each.
std::string late_report_markdown(const CourseDeadlines& course, const std::vector<StudentRecord>& records);

}  // namespace parlab::grader::batch
