#include "batch/student_reports.hpp"

#include <nlohmann/json.hpp>

#include "batch/gradebook.hpp"
#include "report/markdown_text.hpp"
#include "report/reporter.hpp"
#include "util/atomic_write.hpp"

namespace parlab::grader::batch {

std::string late_section_markdown(const LateRecord& l, double graded_max) {
  using markdown_text::md_cell;
  const std::string out_of = " / " + format_points(graded_max);
  std::string s = "## Late policy\n\n";
  if (l.raw_score) s += "- **Raw score:** " + format_points(*l.raw_score) + out_of + "\n";
  s += "- **Submitted:** " + (l.submitted_at.empty() ? std::string("unknown") : md_cell(l.submitted_at)) + " (" +
       md_cell(l.submitted_from) + ")\n";
  s += "- **Due:** " + md_cell(l.due) + "\n";
  s += "- **Lateness:** " + md_cell(l.lateness) + "\n";
  s += "- **Penalty:** " + (l.penalty_percent ? format_points(*l.penalty_percent) + " %" : std::string("not decided")) +
       "\n";
  s += "- **Final score:** " +
       (l.final_score ? format_points(*l.final_score) + out_of : std::string("not decided (the submission time is unknown)")) +
       "\n";
  const bool forgiven = l.reason.empty() && l.lateness != "on time";  // late within the grace period
  s += "- **Why:** " +
       (l.reason.empty() ? std::string(forgiven ? "within the grace period: nothing deducted" : "nothing deducted")
                         : md_cell(l.reason)) +
       "\n";
  return s;
}

std::string with_late_outcome(const std::string& results_json, const LateRecord& l, double graded_max) {
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(results_json);
  if (l.final_score) doc["score"] = *l.final_score;
  doc["output"] = late_section_markdown(l, graded_max) + "\n" + doc.value("output", std::string());
  return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

void write_student_reports(const BatchLayout& layout, const StudentRecord& r, const LateRecord* late) {
  const ReportOptions plain{false, false};
  std::string markdown = make_reporter("markdown", plain)->render(*r.result);
  std::string gradescope = make_reporter("gradescope", plain)->render(*r.result);
  if (late) {
    // Near the top, where the reader starts: after the title and the list under it
    // (the first two blank lines), so the two lists do not run together.
    const std::string section = late_section_markdown(*late, r.result->graded_max_score) + "\n";
    std::size_t at = markdown.find("\n\n");
    if (at != std::string::npos) at = markdown.find("\n\n", at + 2);
    markdown.insert(at == std::string::npos ? markdown.size() : at + 2, section);
    gradescope = with_late_outcome(gradescope, *late, r.result->graded_max_score);
  }
  write_file_atomically(layout.markdown_file(r.student.id), markdown);
  write_file_atomically(layout.gradescope_file(r.student.id), gradescope);
}

}  // namespace parlab::grader::batch
