#pragma once
// A finished student's own reports, report.md and gradescope/results.json, with the
// late policy's outcome when the batch has a course file: the raw score, the submission
// and due times, the lateness, the penalty and the final score with the reason. Written
// again by every collect, so a course file edited later (an extension) reaches them
// without a regrade, and a run without one leaves them plain.
#include <string>

#include "batch/batch_layout.hpp"
#include "batch/late_record.hpp"
#include "batch/student_record.hpp"

namespace parlab::grader::batch {

// The student's report.md and results.json from the saved result; `late` is null
// without a course file.
void write_student_reports(const BatchLayout& layout, const StudentRecord& record, const LateRecord* late);

// The Markdown section the two reports carry ("## Late policy ...").
std::string late_section_markdown(const LateRecord& late, double graded_max);

// Gradescope's results.json text with the late outcome: its top-level `score` (which
// Gradescope shows instead of the tests' sum) is the final score when it is known, and
// its `output` opens with the late section.
std::string with_late_outcome(const std::string& results_json, const LateRecord& late, double graded_max);

}  // namespace parlab::grader::batch
