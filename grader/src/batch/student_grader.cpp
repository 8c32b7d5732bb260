#include "batch/student_grader.hpp"

#include <chrono>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "batch/child_grade.hpp"
#include "batch/infrastructure_failure.hpp"
#include "batch/submission_unpacker.hpp"
#include "compile/track_choice.hpp"
#include "core/errors.hpp"
#include "result/result_json.hpp"
#include "util/text_file.hpp"

namespace fs = std::filesystem;

namespace parlab::grader::batch {
namespace {

ManifestStudent manifest_entry(const Student& s) { return {s.id, s.name, s.source.entry}; }

// A class may mix a lab's tracks: each grading finds its own from the files. A folder
// holding two tracks' sources is the student's to fix (grade refuses to choose, exit 2),
// so it is rejected with the reason, not retried as the grader's failure.
std::string track_problem(const LabSpec& lab, const fs::path& root) {
  try {
    choose_track(lab, root, std::nullopt);
  } catch (const UsageError& e) {
    const std::string why = e.what();
    const std::string folder = root.string();
    return why.rfind(folder, 0) == 0 ? "the submission" + why.substr(folder.size()) : why;
  }
  return "";
}

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

// One attempt: a `grade` child (or the test hook's stand-in). Returns the result when
// it stands as the student's, else sets `problem` to why it is the grader's failure.
std::optional<GradeResult> attempt(const BatchOptions& o, const Student& student, const fs::path& root,
                                   const fs::path& dir, double time_cap, ChildRun& run, std::string& problem) {
  const fs::path json = dir / "result.json";
  fs::remove(json);
  if (std::optional<int> code = simulated_infrastructure_failure(student.id)) {
    run = run_child("/bin/sh",
                    {"-c", "echo 'grade: error: simulated infrastructure failure (PARLAB_TEST_BATCH_INFRA_FAIL)'; exit " +
                               std::to_string(*code)},
                    dir / "grade.log", time_cap);
  } else {
    run = run_child(self_executable(), child_grade_args(o, root, json), dir / "grade.log", time_cap);
  }
  problem = child_failure(run);
  if (!problem.empty()) return std::nullopt;
  try {
    GradeResult result = grade_result_from_json_text(read_text_file(json));
    problem = infrastructure_problem_in(result);
    if (problem.empty()) return result;
  } catch (const std::exception& e) {
    problem = std::string("the grader's result does not read back: ") + e.what();
  }
  return std::nullopt;
}

}  // namespace

bool grade_again_for_inconclusive(const GradeResult& result, int attempt, int max_attempts) {
  if (attempt >= max_attempts) return false;
  for (const TestResult& t : result.tests) {
    if (t.status == TestStatus::inconclusive) return true;
  }
  return false;
}

RecordIdentity current_identity(const GradingContext& context, const Student& student) {
  RecordIdentity id = context.base;
  id.entry = student.source.entry;
  id.submission_hash = submission_content_hash(student.source.path);
  id.roster_row = student.roster_row;
  return id;
}

StudentGrader::StudentGrader(const BatchOptions& options, const LabSpec& lab, BatchLayout layout,
                             fs::path work, GradingContext context)
    : options_(options), lab_(lab), layout_(std::move(layout)), work_(std::move(work)),
      context_(std::move(context)), time_cap_(grading_time_cap(lab, options)) {}

StudentGrading StudentGrader::grade(const Student& student) const {
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  StudentGrading out;
  StudentRecord& rec = out.record;
  rec.student = manifest_entry(student);
  rec.regrade_token = context_.regrade_token;
  rec.regraded_because = student.regrade_reason;
  rec.requested_by = student.requested_by;
  mark_unfinished(layout_, student.id);
  remove_stale_temp_files(layout_.student_dir(student.id));
  // Hashed before unpacking: a resubmission landing meanwhile makes the record stale.
  rec.identity = current_identity(context_, student);

  const fs::path dir = work_ / student.id;
  fs::remove_all(dir);  // whatever an interrupted run left
  fs::create_directories(dir);
  UnpackOutcome unpacked = unpack(student.source, dir / "submission", options_.limits);
  const fs::path root = unpacked.ok() ? find_submission_root(dir / "submission", lab_.sources.front()) : fs::path();
  const std::string refused = unpacked.ok() ? track_problem(lab_, root) : unpacked.problem;
  if (!refused.empty()) {
    fs::remove_all(dir / "submission");
    rec.status = StudentStatus::rejected;
    rec.reason = "not a usable submission: " + refused;
    rec.result = rejected_result(lab_, student.source.path.string(), refused);
    rec.seconds = elapsed();
    save_finished(layout_, rec);
    return out;
  }

  double pause = context_.retry_pause_s;
  std::string problem;
  ChildRun run;
  auto finish = [&](GradeResult result) {
    result.submission = student.source.path.string();  // what the instructor knows it by
    rec.status = result.build.ok ? StudentStatus::graded : StudentStatus::build_failed;
    rec.result = std::move(result);
    rec.seconds = elapsed();
    save_finished(layout_, rec);
    return out;
  };
  // A grading with an inconclusive test (the machine was busy while it measured) stands,
  // but is measured again while attempts remain; the last one is kept, flagged.
  std::optional<GradeResult> inconclusive;
  for (rec.attempts = 1;; ++rec.attempts) {
    std::optional<GradeResult> result = attempt(options_, student, root, dir, time_cap_, run, problem);
    if (result && !grade_again_for_inconclusive(*result, rec.attempts, context_.max_attempts))
      return finish(std::move(*result));
    if (result) inconclusive = std::move(result);
    // Each attempt not kept says why, in the record and the run's facts.
    if (rec.attempts < context_.max_attempts && !run.timed_out)
      rec.retried_because.push_back(result ? "a test was inconclusive (the machine was busy)" : problem);
    // A timeout already cost a whole time cap: the next run retries it, not this one.
    if (rec.attempts >= context_.max_attempts || run.timed_out) break;
    // Shared resources (the uid's process limit, the sandbox) are often back a moment
    // later; the jitter keeps gradings that failed together from retrying together.
    thread_local std::mt19937 random(std::random_device{}());
    std::this_thread::sleep_for(
        std::chrono::duration<double>(pause * std::uniform_real_distribution<double>(0.5, 1.5)(random)));
    pause *= 2;
  }
  if (inconclusive) return finish(std::move(*inconclusive));
  out.environment_broken = run.exit_code == kExitEnvironment;
  rec.status = StudentStatus::error;
  rec.seconds = elapsed();
  rec.reason = problem + " (" + std::to_string(rec.attempts) + " attempt" + (rec.attempts > 1 ? "s" : "") +
               "; log: " + (dir / "grade.log").string() + "; the next run retries it)";
  save_error(layout_, rec);
  return out;
}

}  // namespace parlab::grader::batch
