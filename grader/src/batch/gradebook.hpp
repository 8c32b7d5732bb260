#pragma once
// gradebook.csv, derived from the per-student records (never edited by hand, rebuilt
// by every run and by `grade batch --collect`). One row per student, sorted by id:
//   student,id,entry,status,track,<one column per test: points>,total,max,flags,reason,sandbox
// and, with a course file (--course), the late columns of batch/late_record.hpp.
// `max` is what the row's total is out of: the lab's points less the tests left out of
// that grading's total (not graded on that machine, inconclusive), whose cells say
// "not graded" or "inconclusive" instead of a 0 the student never earned.
#include <string>
#include <vector>

#include "batch/batch_manifest.hpp"
#include "batch/student_record.hpp"

namespace parlab::grader::batch {

struct CourseDeadlines;
std::string gradebook_csv(const BatchManifest& manifest, const std::vector<StudentRecord>& records,
                          const CourseDeadlines* course = nullptr);

// Flags worth an instructor's look, ';'-separated: run outcomes other than ok
// ("crashed", "timeout", ...), "inconclusive" (noisy measurement), "no-perf".
std::string record_flags(const StudentRecord& record);

// Why a row has no or low points in one phrase: the rejection or error reason, the
// first compiler error, else "".
std::string record_reason(const StudentRecord& record);

// The track the row was graded in ("cpp", "python"); "" where nothing was built.
std::string record_track(const StudentRecord& record);

// A gradebook cell stays readable: longer reasons (an archive's libarchive message can
// run to thousands of characters) are cut at `max_chars` with a note; the report has it all.
constexpr std::size_t kMaxReasonChars = 300;
std::string capped_cell(const std::string& text, std::size_t max_chars);

// RFC 4180 field: quoted when it holds a comma, quote or line break.
std::string csv_field(const std::string& text);

// Shortest text that reads back to the same number ("10", "60.35").
std::string format_points(double points);

}  // namespace parlab::grader::batch
