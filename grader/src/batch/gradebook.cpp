#include "batch/gradebook.hpp"
#include "batch/late_record.hpp"
#include "report/untrusted_text.hpp"

#include <charconv>
#include <set>

namespace parlab::grader::batch {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string format_points(double points) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, points);
  return ec == std::errc() ? std::string(buf, end) : "0";
}

std::string record_flags(const StudentRecord& r) {
  if (!r.result) return "";
  std::set<std::string> flags;  // sorted: rows compare equal whatever order tests ran in
  for (const TestResult& t : r.result->tests) {
    if (t.outcome != RunOutcome::ok && t.outcome != RunOutcome::not_run) flags.insert(to_string(t.outcome));
    if (t.status == TestStatus::inconclusive) flags.insert("inconclusive");
  }
  if (!r.result->performance_enabled && r.status == StudentStatus::graded) flags.insert("no-perf");
  std::string out;
  for (const std::string& f : flags) out += (out.empty() ? "" : ";") + f;
  return out;
}

std::string record_reason(const StudentRecord& r) {
  // Reasons can quote the submission (its compiler's messages): one escaped line.
  if (!r.reason.empty()) return untrusted_text::escape_line(r.reason);
  if (r.status == StudentStatus::build_failed && r.result) {
    for (const Diagnostic& d : r.result->build.diagnostics) {
      if (d.severity == "error") {
        // The file name only: the unpacked folder's path means nothing to the reader.
        return "did not compile: " +
               untrusted_text::escape_line(std::filesystem::path(d.file).filename().string()) +
               ":" + std::to_string(d.line) + ": " + untrusted_text::escape_line(d.message);
      }
    }
    return "did not compile";
  }
  if (r.status == StudentStatus::missing) return "no submission";
  if (r.status == StudentStatus::pending) return "not graded yet";
  return "";
}

std::string capped_cell(const std::string& text, std::size_t max_chars) {
  if (text.size() <= max_chars) return text;
  std::size_t cut = max_chars;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
  return text.substr(0, cut) + " ... (" + std::to_string(text.size() - cut) + " more characters; see the report)";
}

// How this student's code was contained: "bubblewrap (require)"; empty without a result.
std::string record_sandbox(const StudentRecord& r) {
  if (!r.result || r.result->host.sandbox.empty()) return "";
  const HostInfo& h = r.result->host;
  return h.sandbox + (h.sandbox_level.empty() ? "" : " (" + h.sandbox_level + ")");
}

// The language the row was graded in ("cpp", "python"): a class may mix a lab's tracks.
// Empty where nothing was built (rejected, missing, pending, the grader's error).
std::string record_track(const StudentRecord& r) {
  const bool built = r.status == StudentStatus::graded || r.status == StudentStatus::build_failed;
  return built && r.result ? to_string(r.result->track) : "";
}

namespace {

// A test left out of the graded total reads as what it is, never as a 0 earned.
std::string points_cell(const TestResult& t) {
  if (t.status == TestStatus::not_graded) return "not graded";
  if (t.status == TestStatus::inconclusive) return "inconclusive";
  return format_points(t.points);
}

std::string row_out_of(const BatchManifest& m, const StudentRecord& r) {
  // A record without a graded total (a rejection, an older record) is out of the lab's points.
  const bool has_total = r.result && r.result->graded_max_score > 0;
  return format_points(has_total ? r.result->graded_max_score : m.max_score);
}

}  // namespace

std::string gradebook_csv(const BatchManifest& m, const std::vector<StudentRecord>& records,
                          const CourseDeadlines* course) {
  std::string out = "student,id,entry,status,track";
  for (const ManifestTest& t : m.tests) out += "," + csv_field(t.name);
  out += ",total,max,flags,reason,sandbox";
  out += course ? std::string(",") + kLateColumns + "\n" : "\n";
  for (const StudentRecord& r : records) {
    out += csv_field(r.student.name) + "," + csv_field(r.student.id) + "," + csv_field(r.student.entry) +
           "," + to_string(r.status) + "," + record_track(r);
    for (const ManifestTest& t : m.tests) {
      std::string cell;
      if (r.result) {
        for (const TestResult& tr : r.result->tests) {
          if (tr.name == t.name) cell = points_cell(tr);
        }
      }
      out += "," + cell;
    }
    out += "," + (r.result ? format_points(r.result->score) : std::string()) + "," +
           row_out_of(m, r) + "," + csv_field(record_flags(r)) + "," +
           csv_field(capped_cell(record_reason(r), kMaxReasonChars)) + "," + csv_field(record_sandbox(r));
    out += (course ? late_cells(late_record(*course, r)) : std::string()) + "\n";
  }
  return out;
}

}  // namespace parlab::grader::batch
