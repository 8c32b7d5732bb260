#pragma once
// A course file (TOML): the lab's due time, per section and per student, extensions,
// and the late policy. Every time carries its UTC offset (a time without one would
// depend on the grading machine's time zone). Example (docs/batch.md):
//
//   [late_policy]
//   grace_minutes = 15
//   penalty_percent_per_day = 10
//   cap_percent = 30
//   cutoff_days = 5
//   [due]
//   default = 2026-03-01T23:59:00-05:00
//   sections = { B = 2026-03-02T23:59:00-05:00 }
//   students = { s007 = 2026-03-04T12:00:00Z }
//   [extensions_days]
//   s002 = 2
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "batch/late_policy.hpp"

namespace parlab::grader::batch {

struct CourseDeadlines {
  LatePolicy policy;
  std::int64_t default_due = 0;
  std::map<std::string, std::int64_t> section_due;
  std::map<std::string, std::int64_t> student_due;
  std::map<std::string, double> extension_days;

  // The student's due time: their own, else their section's, else the default; plus
  // their extension.
  std::int64_t due_for(const std::string& student, const std::string& section) const;
};

// Throws SpecError naming the file, the line and the key for a bad time or policy.
CourseDeadlines read_course_deadlines(const std::filesystem::path& file);

// "2026-03-01T23:59:00-05:00" (RFC 3339) -> seconds since the epoch; nothing when the
// text is not such a time or has no UTC offset. For submission times of LMS exports.
std::optional<std::int64_t> parse_timestamp(const std::string& text);

}  // namespace parlab::grader::batch
