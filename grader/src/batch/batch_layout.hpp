#pragma once
// Where a batch keeps things (docs/batch.md "Output folder"). The per-student files
// are the state; gradebook and summary are derived from them and rebuilt at will.
#include <filesystem>
#include <string>

namespace parlab::grader::batch {

struct BatchLayout {
  std::filesystem::path out;

  std::filesystem::path manifest() const { return out / "batch.json"; }
  std::filesystem::path students() const { return out / "students"; }
  std::filesystem::path student_dir(const std::string& id) const { return students() / id; }
  // Written last: a student is finished exactly when this file exists.
  std::filesystem::path status_file(const std::string& id) const { return student_dir(id) / "status.json"; }
  std::filesystem::path result_file(const std::string& id) const { return student_dir(id) / "result.json"; }
  std::filesystem::path markdown_file(const std::string& id) const { return student_dir(id) / "report.md"; }
  std::filesystem::path gradescope_file(const std::string& id) const {
    return student_dir(id) / "gradescope" / "results.json";
  }
  // A grader-side failure: retried by the next run, so never a final state.
  std::filesystem::path error_file(const std::string& id) const { return student_dir(id) / "error.json"; }
  std::filesystem::path gradebook() const { return out / "gradebook.csv"; }
  // The --course file as the batch read it (the late columns are built from it).
  std::filesystem::path course_file() const { return out / "course.toml"; }
  std::filesystem::path late_report() const { return out / "late.md"; }
  std::filesystem::path late_file(const std::string& id) const { return student_dir(id) / "late.json"; }
  std::filesystem::path summary_json() const { return out / "summary.json"; }
  std::filesystem::path summary_markdown() const { return out / "summary.md"; }
  std::filesystem::path summary_html() const { return out / "summary.html"; }
  std::filesystem::path reference_check() const { return out / "reference-check.json"; }
  std::filesystem::path slurm_dir() const { return out / "slurm"; }
};

}  // namespace parlab::grader::batch
