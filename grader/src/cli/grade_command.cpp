// `grade LAB [SUBMISSION_DIR]`: grade one submission and write the reports asked for.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "compile/content_hash.hpp"
#include "compile/submission_check.hpp"
#include "compile/toolchain.hpp"
#include "compile/track_choice.hpp"
#include "cli/commands.hpp"
#include "cli/grade_command_line.hpp"
#include "core/errors.hpp"
#include "cli/grade_progress.hpp"
#include "cli/output_paths.hpp"
#include "cli/sandbox_level.hpp"
#include "grading/grader_tree_seal.hpp"
#include "grading/reference_seal.hpp"
#include "cli/interrupt_guard.hpp"
#include "cli/terminal_width.hpp"
#include "cli/work_root.hpp"
#include "grading/grade_session.hpp"
#include "grading/sandbox_reach.hpp"
#include "grading/test_selection.hpp"
#include "process/run_area.hpp"
#include "process/sandboxed_runner.hpp"
#include "report/console_layout.hpp"
#include "report/reporter.hpp"
#include "spec/lab_spec.hpp"
#include "spec/lab_tracks.hpp"
#include "util/atomic_write.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

bool want_color(const std::string& mode) {
  if (mode != "auto") return mode == "always";
  const char* term = std::getenv("TERM");
  return isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR") && term && std::string(term) != "dumb";
}

// The lab's spec, with --wall-limit applied to every test.
LabSpec load_lab(const GradeCommandLine& c, const Toolchain& toolchain) {
  if (!toolchain.labs.count(c.lab_id)) {
    std::string known;
    for (const auto& [id, _] : toolchain.labs) known += (known.empty() ? "" : ", ") + id;
    throw UsageError("unknown lab '" + c.lab_id + "' (labs in this build: " + known + ")");
  }
  LabSpec lab = load_lab_spec(toolchain.lab(c.lab_id).dir / "lab.toml");
  if (lab.id != c.lab_id) {
    throw SpecError(lab.file.string() + ": [lab] id is '" + lab.id + "', expected '" + c.lab_id + "'");
  }
  if (c.wall_limit) {
    for (TestSpec& t : lab.tests) t.limits.wall_seconds = std::min(t.limits.wall_seconds, *c.wall_limit);
  }
  return lab;
}

// The lab as graded for the submission's track (--language, else the sources the
// folder holds; the skeleton and the reference are the C++ track's unless --language
// says otherwise), with the track's skeleton and reference folders in `options`.
LabSpec lab_for_submission(const GradeCommandLine& c, const LabSpec& lab, GradeOptions& options) {
  const Track track = c.submission ? choose_track(lab, fs::absolute(*c.submission), c.language)
                                   : c.language.value_or(Track::cpp);
  LabSpec graded = for_track(lab, track);
  const TrackSpec& spec = *find_track(graded, track);
  options.skeleton_folder = spec.skeleton;
  options.reference_folder = spec.reference;
  return graded;
}

GradeOptions grade_options_for(const GradeCommandLine& c, const Toolchain& toolchain) {
  GradeOptions options;
  options.lab_id = c.lab_id;
  if (c.submission) options.submission_dir = fs::absolute(*c.submission);
  options.reference_mode = c.reference_mode;
  options.performance = c.performance;
  options.only = c.only;
  options.device = c.device;
  options.seed = c.seed;
  options.work_root = c.work_dir ? fs::absolute(*c.work_dir) : default_work_root(toolchain.build_dir);
  options.sandbox_level = c.sandbox_level;
  options.keep_runs = c.keep_runs;
  if (const char* quota = std::getenv("PARLAB_RUN_DISK_QUOTA_MB"); quota && *quota)
    options.run_disk_quota_mb = std::strtoull(quota, nullptr, 10);
  return options;
}

// Checked before anything starts (exit 2 or 3 at once, one line): the submission
// is a folder, and every report file can be written.
fs::path check_before_grading(const GradeCommandLine& c, const GradeOptions& options,
                              const LabToolchain& labtc) {
  // A student kit has the references only as executables: nothing to grade as a submission.
  if (options.reference_mode && (labtc.reference_dir.empty() || !fs::is_directory(labtc.reference_dir))) {
    throw UsageError("--reference grades the reference's source, which this build does not have (a "
                     "student kit holds the references only as prebuilt executables); grade your own "
                     "folder instead: grade " + c.lab_id + " my-" + c.lab_id);
  }
  const fs::path submission = resolve_submission(options, labtc);
  require_submission_folder(submission);
  for (const ReportFile& file : c.report_files) require_writable_output(file.path, "--" + file.format);
  require_writable_work_root(options.work_root);
  return submission;
}

ReportOptions report_options_for(const GradeCommandLine& c, const LabSpec& lab,
                                 const GradeOptions& options, const fs::path& submission) {
  ReportOptions report_options{want_color(c.color), c.verbose};
  report_options.width = report_width(terminal_columns(STDOUT_FILENO));
  report_options.leaderboard = lab.leaderboard;  // Gradescope's, where the lab declares one
  // Where the full report is kept: the --json file, else the grading's own result.json
  // (grade_session writes it under the work root, keyed like this).
  const std::optional<std::string> json = c.report_file("json");
  report_options.full_report =
      json ? *json
           : (options.work_root / c.lab_id /
              ContentHash().add(fs::absolute(submission).string()).hex() / "result.json")
                 .string();
  return report_options;
}

// The sandbox of this grading, and the files it needs opened or closed to it.
std::unique_ptr<SandboxedRunner> prepare_sandbox(GradeOptions& options, const Toolchain& toolchain,
                                                 const LabToolchain& labtc) {
  std::unique_ptr<SandboxedRunner> sandbox = make_runner_for_level(options.sandbox_level);
  options.sandbox_fallback = sandbox->bubblewrap_problem();
  // The submission itself is copied by the grader, so only these need to be reachable.
  if (sandbox->drops_privileges()) {
    require_reachable_by_others(options.work_root, "work dir");
    require_reachable_by_others(toolchain.build_dir, "build dir");
    require_reachable_by_others(labtc.dir, "lab folder");
  }
  // Before any submission code (its compile included): the references, and everything
  // of the grader's trees that its compile and runs do not need, closed to it.
  if (std::optional<gid_t> submissions_gid = sandbox->submissions_gid()) {
    seal_instructor_files(instructor_files(toolchain), *submissions_gid);
    seal_grader_tree(toolchain, options.work_root, *submissions_gid);
  }
  return sandbox;
}

// Every report file asked for, in the table's order.
void write_report_files(const GradeCommandLine& c, const ReportOptions& report_options,
                        const GradeResult& result) {
  for (const ReportFile& file : c.report_files) {
    ReportOptions file_options = report_options;
    file_options.color = false;
    write_report_file(file.path, make_reporter(file.format, file_options)->render(result));
    if (c.verbose) std::cerr << "grade: wrote " << file.format << " report to " << file.path << "\n";
  }
}

// Runs the grading, its progress on stderr; a stopped one leaves a partial --json result.
GradeResult grade_with_guard(const GradeCommandLine& c, GradeOptions& options, const LabSpec& lab,
                             const Toolchain& toolchain, const ReportOptions& report_options) {
  // This grading's tmpfs run area must not outlive it, even after kill -9 (before any
  // thread starts, as unshare(CLONE_NEWNS) requires).
  process::give_this_process_private_mounts();
  // A stopped grading leaves a partial --json result (before any thread starts).
  const std::optional<std::string> json_file = c.report_file("json");
  InterruptGuard guard([&](const GradeResult& partial) {
    if (json_file) write_file_atomically(*json_file, make_reporter("json", report_options)->render(partial));
  });
  options.checkpoint = [&guard](const GradeResult& partial) { guard.checkpoint(partial); };
  // Progress on stderr (after the guard: its thread starts after the mount setup).
  std::vector<std::string> test_names;
  for (const TestSpec& t : lab.tests) test_names.push_back(t.name);
  GradeProgress progress(std::cerr, test_names, isatty(STDERR_FILENO) != 0, c.verbose,
                         terminal_columns(STDERR_FILENO));
  options.log = [&progress](const std::string& line) { progress.step(line); };
  options.notice = [&progress](const std::string& line) { progress.notice(line); };
  std::unique_ptr<SandboxedRunner> sandbox = prepare_sandbox(options, toolchain, toolchain.lab(c.lab_id));
  GradeResult result;
  try {
    result = grade_submission(options, lab, toolchain, *sandbox);
  } catch (const ToolError& e) {
    // Nothing lost: what was graded before the grader failed is kept, marked as such.
    if (std::optional<GradeResult> partial = guard.latest(); partial && json_file) {
      partial->interrupted = std::string("stopped by a grader error: ") + e.what();
      partial->notes.push_back("incomplete: " + partial->interrupted);
      write_file_atomically(*json_file, make_reporter("json", report_options)->render(*partial));
    }
    throw;
  }
  progress.finish();
  return result;
}

}  // namespace

int run_grade_command(const std::string& lab_id, const std::vector<std::string>& args) {
  const GradeCommandLine c = parse_grade_command_line(lab_id, args);
  if (c.help) {
    std::cout << grade_command_help(lab_id);
    return kExitAllPassed;
  }
  const Toolchain toolchain =
      load_toolchain(c.toolchain ? fs::path(*c.toolchain) : default_toolchain_path());
  GradeOptions options = grade_options_for(c, toolchain);
  const LabSpec lab = lab_for_submission(c, load_lab(c, toolchain), options);
  if (!c.only.empty()) select_tests(lab, c.only, c.performance);  // a wrong name: exit 2 at once
  const fs::path submission = check_before_grading(c, options, toolchain.lab(lab_id));
  const ReportOptions report_options = report_options_for(c, lab, options, submission);
  // On a terminal the line fits it, as the report and the progress line do (a long
  // submission path would wrap at 80 columns); piped, it is kept whole for the log.
  const std::string starting = "grade: grading " + lab_id + " " + submission.string() + " ...";
  const std::size_t columns = terminal_columns(STDERR_FILENO);
  std::cerr << (columns == 0 ? starting : console_layout::fit_line(starting, report_width(columns)))
            << "\n";
  const GradeResult result = grade_with_guard(c, options, lab, toolchain, report_options);
  write_report_files(c, report_options, result);
  std::cout << make_reporter("console", report_options)->render(result);
  return exit_code_for(result);
}

}  // namespace parlab::grader
