#include "batch/student_grader.hpp"

#include <chrono>
#include <fstream>
#include <sstream>

#include "batch/child_grade.hpp"
#include "batch/submission_unpacker.hpp"
#include "cli/errors.hpp"
#include "result/result_json.hpp"

namespace fs = std::filesystem;

namespace parlab::grader::batch {
namespace {

ManifestStudent manifest_entry(const Student& s) { return {s.id, s.name, s.source.entry}; }

UnpackOutcome unpack(const SubmissionSource& source, const fs::path& dest, const UnpackLimits& limits) {
  switch (source.kind) {
    case SourceKind::folder:
      return copy_folder(source.path, dest, limits);
    case SourceKind::archive:
      return unpack_archive(source.path, dest, limits);
    case SourceKind::unsupported_archive:
      break;
  }
  UnpackOutcome o;
  o.problem = "unsupported archive format ('" + source.entry + "'): submit a .zip, .tar or .tar.gz";
  return o;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

StudentGrader::StudentGrader(const BatchOptions& options, const LabSpec& lab, BatchLayout layout,
                             fs::path work)
    : options_(options), lab_(lab), layout_(std::move(layout)), work_(std::move(work)),
      time_cap_(grading_time_cap(lab, options)) {}

StudentGrading StudentGrader::grade(const Student& student) const {
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  StudentGrading out;
  StudentRecord& rec = out.record;
  rec.student = manifest_entry(student);
  mark_unfinished(layout_, student.id);

  const fs::path dir = work_ / student.id;
  fs::remove_all(dir);  // whatever an interrupted run left
  fs::create_directories(dir);
  UnpackOutcome unpacked = unpack(student.source, dir / "submission", options_.limits);
  if (!unpacked.ok()) {
    fs::remove_all(dir / "submission");
    rec.status = StudentStatus::rejected;
    rec.reason = "not a usable submission: " + unpacked.problem;
    rec.result = rejected_result(lab_, student.source.path.string(), unpacked.problem);
    rec.seconds = elapsed();
    save_finished(layout_, rec);
    return out;
  }

  const fs::path root = find_submission_root(dir / "submission", lab_.sources.front());
  const fs::path json = dir / "result.json";
  ChildRun run = run_child(self_executable(), child_grade_args(options_, root, json), dir / "grade.log",
                           time_cap_);
  rec.seconds = elapsed();
  if (run.exit_code == kExitAllPassed || run.exit_code == kExitSomeFailed) {
    try {
      GradeResult result = grade_result_from_json_text(read_text(json));
      result.submission = student.source.path.string();  // what the instructor knows it by
      rec.status = result.build.ok ? StudentStatus::graded : StudentStatus::build_failed;
      rec.result = std::move(result);
      save_finished(layout_, rec);
      return out;
    } catch (const std::exception& e) {
      run.error_line = std::string("its result does not read back: ") + e.what();
    }
  }
  out.environment_broken = run.exit_code == kExitEnvironment;
  rec.status = StudentStatus::error;
  rec.reason = run.describe() + " (log: " + (dir / "grade.log").string() + ")";
  save_error(layout_, rec.student, rec.reason, rec.seconds);
  return out;
}

}  // namespace parlab::grader::batch
