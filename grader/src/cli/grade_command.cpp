// `grade LAB [SUBMISSION_DIR]`: grade one submission and write the reports asked for.
#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdlib>
#include <iostream>

#include "compile/content_hash.hpp"
#include "compile/submission_check.hpp"
#include "compile/toolchain.hpp"
#include "cli/commands.hpp"
#include "core/errors.hpp"
#include "cli/grade_progress.hpp"
#include "cli/output_paths.hpp"
#include "cli/sandbox_level.hpp"
#include "grading/reference_seal.hpp"
#include "cli/interrupt_guard.hpp"
#include "cli/terminal_width.hpp"
#include "cli/work_root.hpp"
#include "grading/grade_session.hpp"
#include "grading/sandbox_reach.hpp"
#include "process/run_area.hpp"
#include "process/sandboxed_runner.hpp"
#include "report/reporter.hpp"
#include "spec/lab_spec.hpp"
#include "util/atomic_write.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

bool want_color(const std::string& mode) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  if (mode != "auto") throw UsageError("--color must be auto, always or never, got '" + mode + "'");
  const char* term = std::getenv("TERM");
  return isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR") && term && std::string(term) != "dumb";
}

po::options_description grade_options() {
  po::options_description o("grade LAB [SUBMISSION_DIR] options");
  o.add_options()
      ("help,h", "show this help")
      ("reference", "grade the reference solution as if it were a submission (checks a lab)")
      ("json", po::value<std::string>(), "write the canonical JSON result to this file")
      ("gradescope", po::value<std::string>(), "write a Gradescope results.json to this file")
      ("junit", po::value<std::string>(), "write JUnit XML to this file")
      ("markdown", po::value<std::string>(), "write a Markdown report to this file")
      ("html", po::value<std::string>(), "write a self-contained HTML report to this file")
      ("no-perf", "correctness tests only; performance tests are reported as not graded")
      ("device", po::value<std::string>()->default_value("auto"),
       "GPU labs: auto (the GPU if one is usable, else the simulator) | gpu | sim | none")
      ("seed", po::value<std::string>(), "seed of the fresh dataset (repeat a grading)")
      ("work-dir", po::value<std::string>(), "where builds, runs and caches go "
                                               "(default: BUILD_DIR/grade-work as root, else "
                                               "$XDG_CACHE_HOME/parlab or ~/.cache/parlab)")
      ("toolchain", po::value<std::string>(), "compile/toolchain.json to use")
      ("wall-limit", po::value<double>(), "cap every test's wall-clock limit at this many "
                                          "seconds (quick checks of slow submissions)")
      ("sandbox", po::value<std::string>(), "auto (bubblewrap when it works, else rlimits, said in "
                                            "the report) | require (exit 3 without bubblewrap) | "
                                            "off; default auto, require with --gradescope")
      ("keep-runs", "keep the run folders after grading (debugging; no disk quota then)")
      ("color", po::value<std::string>()->default_value("auto"), "auto | always | never")
      ("verbose,v", "progress lines and details for passing tests");
  return o;
}

// A seed is a plain non-negative integer: "-5" is refused, not read modulo 2^64.
std::uint64_t parse_seed(const std::string& text) {
  const bool digits_only = !text.empty() && text.size() <= 19 &&
                           text.find_first_not_of("0123456789") == std::string::npos;
  if (!digits_only) {
    throw UsageError("--seed must be a whole number from 0 to 9999999999999999999, got '" + text + "'");
  }
  return std::stoull(text);
}

// The report files this command can write, in the order they are written.
constexpr const char* kFileFormats[] = {"json", "gradescope", "junit", "markdown", "html"};

}  // namespace

int run_grade_command(const std::string& lab_id, const std::vector<std::string>& args) {
  po::options_description visible = grade_options();
  po::options_description all = visible;
  all.add_options()("submission", po::value<std::string>(), "submission folder");
  po::positional_options_description positional;
  positional.add("submission", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + " (see grade " + lab_id + " --help)");
  }
  if (vm.count("help")) {
    std::cout << "usage: grade " << lab_id << " [SUBMISSION_DIR] [options]\n"
              << "Grades SUBMISSION_DIR (default: the lab's skeleton).\n\n" << visible;
    return kExitAllPassed;
  }
  if (vm.count("reference") && vm.count("submission")) {
    throw UsageError("give either --reference or a SUBMISSION_DIR, not both");
  }

  Toolchain toolchain = load_toolchain(
      vm.count("toolchain") ? fs::path(vm["toolchain"].as<std::string>()) : default_toolchain_path());
  if (!toolchain.labs.count(lab_id)) {
    std::string known;
    for (const auto& [id, _] : toolchain.labs) known += (known.empty() ? "" : ", ") + id;
    throw UsageError("unknown lab '" + lab_id + "' (labs in this build: " + known + ")");
  }
  const LabToolchain& labtc = toolchain.lab(lab_id);
  LabSpec lab = load_lab_spec(labtc.dir / "lab.toml");
  if (lab.id != lab_id) {
    throw SpecError(lab.file.string() + ": [lab] id is '" + lab.id + "', expected '" + lab_id + "'");
  }

  if (vm.count("wall-limit")) {
    double cap = vm["wall-limit"].as<double>();
    if (!(cap > 0)) throw UsageError("--wall-limit must be > 0 seconds");
    for (TestSpec& t : lab.tests) t.limits.wall_seconds = std::min(t.limits.wall_seconds, cap);
  }
  const bool verbose = vm.count("verbose") > 0;
  GradeOptions options;
  options.lab_id = lab_id;
  if (vm.count("submission")) options.submission_dir = fs::absolute(vm["submission"].as<std::string>());
  options.reference_mode = vm.count("reference") > 0;
  options.performance = vm.count("no-perf") == 0;
  options.device = parse_device_request(vm["device"].as<std::string>());
  if (vm.count("seed")) options.seed = parse_seed(vm["seed"].as<std::string>());
  options.work_root = vm.count("work-dir") ? fs::absolute(vm["work-dir"].as<std::string>())
                                           : default_work_root(toolchain.build_dir);
  // Autograder uploads are graded unattended: never silently with a weaker sandbox.
  options.sandbox_level = checked_sandbox_level(
      vm.count("sandbox") ? vm["sandbox"].as<std::string>()
                          : (vm.count("gradescope") ? "require" : "auto"));
  options.keep_runs = vm.count("keep-runs") > 0;
  if (const char* quota = std::getenv("PARLAB_RUN_DISK_QUOTA_MB"); quota && *quota)
    options.run_disk_quota_mb = std::strtoull(quota, nullptr, 10);

  // Checked before anything starts (exit 2 or 3 at once, one line): the submission
  // is a folder, and every report file can be written.
  // A student kit has the references only as executables: nothing to grade as a submission.
  if (options.reference_mode && (labtc.reference_dir.empty() || !fs::is_directory(labtc.reference_dir))) {
    throw UsageError("--reference grades the reference's source, which this build does not have (a "
                     "student kit holds the references only as prebuilt executables); grade your own "
                     "folder instead: grade " + lab_id + " my-" + lab_id);
  }
  const fs::path submission = resolve_submission(options, labtc);
  require_submission_folder(submission);
  for (const char* format : kFileFormats) {
    if (vm.count(format)) require_writable_output(vm[format].as<std::string>(), std::string("--") + format);
  }
  require_writable_work_root(options.work_root);

  ReportOptions report_options{want_color(vm["color"].as<std::string>()), verbose};
  report_options.width = report_width(terminal_columns(STDOUT_FILENO));
  report_options.leaderboard = lab.leaderboard;  // Gradescope's, where the lab declares one
  // Where the full report is kept: the --json file, else the grading's own result.json
  // (grade_session writes it under the work root, keyed like this).
  report_options.full_report =
      vm.count("json") ? vm["json"].as<std::string>()
                       : (options.work_root / lab_id /
                          ContentHash().add(fs::absolute(submission).string()).hex() / "result.json")
                             .string();
  std::cerr << "grade: grading " << lab_id << " " << submission.string() << " ...\n";
  // This grading's tmpfs run area must not outlive it, even after kill -9 (before any
  // thread starts, as unshare(CLONE_NEWNS) requires).
  process::give_this_process_private_mounts();
  // A stopped grading leaves a partial --json result (before any thread starts).
  std::optional<fs::path> json_file;
  if (vm.count("json")) json_file = fs::path(vm["json"].as<std::string>());
  InterruptGuard guard([&](const GradeResult& partial) {
    if (json_file) write_file_atomically(*json_file, make_reporter("json", report_options)->render(partial));
  });
  options.checkpoint = [&guard](const GradeResult& partial) { guard.checkpoint(partial); };
  // Progress on stderr (after the guard: its thread starts after the mount setup).
  std::vector<std::string> test_names;
  for (const TestSpec& t : lab.tests) test_names.push_back(t.name);
  GradeProgress progress(std::cerr, test_names, isatty(STDERR_FILENO) != 0, verbose,
                         terminal_columns(STDERR_FILENO));
  options.log = [&progress](const std::string& line) { progress.step(line); };
  options.notice = [&progress](const std::string& line) { progress.notice(line); };
  std::unique_ptr<SandboxedRunner> sandbox = make_runner_for_level(options.sandbox_level);
  SandboxedRunner& runner = *sandbox;
  options.sandbox_fallback = runner.bubblewrap_problem();
  // The submission itself is copied by the grader, so only these need to be reachable.
  if (runner.drops_privileges()) {
    require_reachable_by_others(options.work_root, "work dir");
    require_reachable_by_others(toolchain.build_dir, "build dir");
    require_reachable_by_others(labtc.dir, "lab folder");
  }
  // Before any submission code (its compile included): the references closed to it.
  if (std::optional<gid_t> submissions_gid = runner.submissions_gid())
    seal_instructor_files(instructor_files(toolchain), *submissions_gid);
  GradeResult result;
  try {
    result = grade_submission(options, lab, toolchain, runner);
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
  for (const char* format : kFileFormats) {
    if (!vm.count(format)) continue;
    fs::path file = vm[format].as<std::string>();
    ReportOptions file_options = report_options;
    file_options.color = false;
    write_report_file(file, make_reporter(format, file_options)->render(result));
    if (verbose) std::cerr << "grade: wrote " << format << " report to " << file.string() << "\n";
  }
  std::cout << make_reporter("console", report_options)->render(result);
  return exit_code_for(result);
}

}  // namespace parlab::grader
