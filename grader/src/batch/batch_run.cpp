#include "batch/batch_run.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "batch/batch_layout.hpp"
#include "batch/batch_manifest.hpp"
#include "batch/batch_scheduler.hpp"
#include "batch/child_grade.hpp"
#include "batch/collect.hpp"
#include "batch/lab_digest.hpp"
#include "batch/regrade_marker.hpp"
#include "batch/roster.hpp"
#include "batch/run_facts.hpp"
#include "core/errors.hpp"
#include "compile/content_hash.hpp"
#include "process/unique_fd.hpp"
#include "result/result_json.hpp"
#include "util/atomic_write.hpp"
#include "util/clock_text.hpp"

namespace fs = std::filesystem;

namespace parlab::grader::batch {
namespace {

std::vector<std::string> read_id_list(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw UsageError("cannot read the id list " + file.string());
  std::vector<std::string> ids;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) ids.push_back(line);
  }
  return ids;
}

// Grades the reference once before any student: it builds the shared caches (datasets)
// and proves the lab works here. If the reference fails its own correctness tests,
// every student would be blamed for the machine's problem.
void check_reference(const BatchOptions& o, const LabSpec& lab, const fs::path& json, const fs::path& work) {
  fs::create_directories(work);
  const fs::path log = work / "reference-check.log";
  ChildRun run = run_child(self_executable(), child_grade_args(o, {}, json), log, grading_time_cap(lab, o));
  // Exit 5: finished, a performance test inconclusive (busy machine); its correctness counts.
  if (run.exit_code != kExitAllPassed && run.exit_code != kExitSomeFailed &&
      run.exit_code != kExitInconclusive) {
    throw EnvironmentError("grading the reference solution failed, so no student was graded: " +
                           run.describe() + " (log: " + log.string() + ")");
  }
  std::ifstream in(json);
  std::stringstream text;
  text << in.rdbuf();
  GradeResult ref = grade_result_from_json_text(text.str());
  for (const TestResult& t : ref.tests) {
    if (t.kind == TestKind::correctness && t.status != TestStatus::passed) {
      throw EnvironmentError("the reference solution fails its own correctness test '" + t.name +
                             "' on this machine (" + t.message + "); no student was graded (" +
                             json.string() + ")");
    }
  }
}

}  // namespace

// The gradebook's late columns follow the course file of the latest run: kept beside
// batch.json with --course, removed without (collect_batch reads it).
void keep_course_file(const BatchOptions& o, const BatchLayout& layout) {
  if (!o.course) {
    fs::remove(layout.course_file());
    return;
  }
  std::ifstream in(*o.course);
  std::stringstream text;
  text << in.rdbuf();
  write_file_atomically(layout.course_file(), text.str());
}

constexpr const char* kRegradeUnderWay = "the --regrade under way has not graded it yet";

std::string slurm_submission_of(const BatchOptions& o) {
  return o.id_list ? o.id_list->parent_path().filename().string() : std::string();
}

GradingContext grading_context(const BatchLab& b, const std::string& regrade_token) {
  const LabToolchain& t = b.toolchain.lab(b.lab.id);
  GradingContext c;
  c.base.grader_version = PARLAB_VERSION;
  c.base.grader_hash = file_content_hash(self_executable());
  c.base.lab_hash = lab_digest(b.lab.dir, {t.driver_lib, t.reference_exe, t.python_reference_exe,
                                            t.cpu_reference_exe, t.sim_driver_lib, t.sim_reference_exe});
  c.regrade_token = regrade_token;
  return c;
}

std::string stale_reason(const BatchLayout& layout, const GradingContext& context, const Student& s) {
  const StudentRecord r = load_record(layout, {s.id, s.name, s.source.entry});
  if (!r.result) return "its saved result does not read back";
  if (!context.regrade_token.empty() && r.regrade_token != context.regrade_token) return kRegradeUnderWay;
  try {
    return identity_change(r.identity, current_identity(context, s));
  } catch (const std::exception& e) {
    return std::string("its submission cannot be hashed (") + e.what() + ")";
  }
}

// Who this run grades: --only ids, or this Slurm slice, or everyone; finished
// students are skipped unless their record is stale.
std::vector<Student> select_students(const BatchOptions& o, const ClassList& list, const BatchLayout& layout,
                                     const GradingContext& context, std::ostream& log) {
  std::set<std::string> wanted;
  if (!o.only.empty()) {
    for (const std::string& id : o.only) {
      bool known = std::any_of(list.students.begin(), list.students.end(),
                               [&](const Student& s) { return s.id == id; });
      if (!known) throw UsageError("--only " + id + ": no submission has this id (see " + layout.manifest().string() + ")");
      wanted.insert(id);
    }
  } else if (o.id_list) {
    std::vector<std::string> ids = read_id_list(*o.id_list);
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (static_cast<int>(i % o.slice_count) == o.slice_index) wanted.insert(ids[i]);
    }
  }
  // --only always grades its ids; so does a Slurm task of an --only submission.
  const bool force = !o.only.empty() || (o.is_slurm_task() && o.regrade);
  std::vector<Student> out;
  for (const Student& s : list.students) {
    if ((!o.only.empty() || o.id_list) && !wanted.count(s.id)) continue;
    Student chosen = s;
    if (!o.only.empty()) chosen.requested_by = "--only";
    if (!force && is_finished(layout, s.id)) {
      const std::string why = stale_reason(layout, context, s);
      if (why.empty()) continue;
      // A regrade is no change of the submission: logged when resumed, not in the summary.
      if (why != kRegradeUnderWay) chosen.regrade_reason = why;
      if (why != kRegradeUnderWay || !o.regrade) log << "grade: batch: grading " << s.id << " again: " << why << "\n";
    }
    out.push_back(std::move(chosen));
  }
  return out;
}

BatchLab load_batch_lab(const BatchOptions& o) {
  BatchLab b{load_toolchain(o.toolchain ? *o.toolchain : default_toolchain_path()), {}};
  if (!b.toolchain.labs.count(o.lab_id)) {
    std::string known;
    for (const auto& [id, _] : b.toolchain.labs) known += (known.empty() ? "" : ", ") + id;
    throw UsageError("unknown lab '" + o.lab_id + "' (labs in this build: " + known + ")");
  }
  b.lab = load_lab_spec(b.toolchain.lab(o.lab_id).dir / "lab.toml");
  if (b.lab.sources.empty()) throw SpecError(b.lab.file.string() + ": the lab lists no sources");
  return b;
}

ClassList list_class(const BatchOptions& o) {
  std::optional<std::vector<RosterEntry>> roster;
  if (o.roster) roster = load_roster(*o.roster);
  return make_class_list(discover_submissions(o.class_dir), roster);
}

fs::path batch_work_dir(const BatchOptions& o) {
  return o.work_root / "batch" / (o.lab_id + "-" + ContentHash().add(fs::absolute(o.out_dir).string()).hex());
}

int run_batch(const BatchOptions& o) {
  BatchRunFacts facts;
  facts.started_at = now_iso8601();
  const BatchLab b = load_batch_lab(o);
  const BatchLayout layout{o.out_dir};
  const ClassList list = list_class(o);
  const OutputLock lock = lock_output_folder(o.out_dir, slurm_submission_of(o));
  if (!o.is_slurm_task()) {
    // Killed atomic writers' leftovers; only while no other writer can be using them.
    if (int n = remove_stale_temp_files(o.out_dir)) {
      std::cerr << "grade: batch: removed " << n << " temporary file(s) of an interrupted run\n";
    }
    write_file_atomically(layout.manifest(), manifest_json_text(make_manifest(b.lab, list, o.class_dir, o.performance)));
    keep_course_file(o, layout);
  }
  // --regrade marks the whole class before grading anyone (regrade_marker.hpp).
  std::string token = (o.regrade && !o.is_slurm_task()) ? start_regrade(layout) : pending_regrade(layout).value_or("");
  const GradingContext context = grading_context(b, token);
  const std::vector<Student> todo = select_students(o, list, layout, context, std::cerr);
  const fs::path work = batch_work_dir(o);
  // The children build, run and cache in this batch's own area, never in a folder
  // another batch with the same --work-dir uses.
  BatchOptions child = o;
  child.work_root = work / "grade-work";
  std::cerr << "grade: batch: " << b.lab.id << ", " << list.students.size() << " submissions in "
            << o.class_dir.string() << "; " << todo.size() << " to grade with " << o.jobs << " job(s)"
            << (list.gradescope_export ? " (Gradescope export)" : "") << "\n";
  for (const std::string& f : list.ignored) std::cerr << "grade: batch: ignored (not a submission): " << f << "\n";

  facts.submissions = static_cast<int>(list.students.size());
  facts.to_grade = static_cast<int>(todo.size());
  facts.only = o.only;
  facts.regraded_after_change = static_cast<int>(
      std::count_if(todo.begin(), todo.end(), [](const Student& s) { return !s.regrade_reason.empty(); }));
  facts.jobs = o.jobs;
  facts.jobs_asked = o.jobs_asked;
  facts.jobs_lowered_because = o.jobs_lowered_because;
  facts.regrade = o.regrade;
  facts.resumed_regrade = !token.empty() && !o.regrade;

  ScheduleOutcome outcome;
  if (!todo.empty()) {
    std::cerr << "grade: batch: checking the reference solution first ...\n";
    check_reference(child, b.lab, o.is_slurm_task() ? work / "reference-check.json" : layout.reference_check(), work);
    StudentGrader grader(child, b.lab, layout, work, context);
    ProgressReporter progress(static_cast<int>(todo.size()), o.terminal, std::cerr, o.jobs);
    outcome = grade_all(todo, o.jobs, grader, progress);
    progress.done();
  }
  facts.graded = outcome.finished;
  facts.errors = outcome.errors;
  facts.stopped = outcome.environment_broken;
  facts.retried = outcome.retried;
  // A Slurm task is a slice of a run: its facts are in its own log.
  if (!o.is_slurm_task()) write_run_facts(o.out_dir, facts);
  if (outcome.environment_broken) {
    if (!o.is_slurm_task()) collect_batch(layout);  // the gradebook shows the error rows
    throw EnvironmentError("stopped: the grader reports a problem with this machine, not with the "
                           "submissions: " + outcome.environment_reason);
  }
  if (o.is_slurm_task()) return outcome.errors ? kExitSomeFailed : kExitAllPassed;

  CollectCounts c = collect_batch(layout);
  std::cerr << "grade: batch: " << c.finished << " of " << (c.students - c.missing) << " submissions finished"
            << (c.errors ? ", " + std::to_string(c.errors) + " grader errors (re-run to retry)" : "")
            << (c.missing ? ", " + std::to_string(c.missing) + " on the roster without a submission" : "")
            << (c.regrade_left ? ", " + std::to_string(c.regrade_left) + " not yet re-graded by the --regrade under way" : "")
            << "\ngrade: batch: gradebook " << layout.gradebook().string() << ", summary "
            << layout.summary_markdown().string() << " (in a browser: "
            << layout.summary_html().string() << ")\n";
  // With --only, the others still pending is expected, not a failure of this run.
  return (c.errors || c.regrade_left || (c.pending && o.only.empty())) ? kExitSomeFailed : kExitAllPassed;
}

}  // namespace parlab::grader::batch
