// `grade batch LAB CLASS_DIR --out DIR`: grade a whole class (docs/batch.md), locally
// or as a Slurm job array; `grade batch --collect DIR` rebuilds the gradebook.
#include <unistd.h>

#include <boost/program_options.hpp>
#include <iostream>

#include "batch/batch_run.hpp"
#include "batch/batch_manifest.hpp"
#include "batch/collect.hpp"
#include "batch/course_deadlines.hpp"
#include "batch/output_lock.hpp"
#include "batch/slurm_job.hpp"
#include "batch/student_record.hpp"
#include "cli/commands.hpp"
#include "core/errors.hpp"
#include "cli/sandbox_level.hpp"
#include "cli/work_root.hpp"
#include "compile/toolchain.hpp"
#include "grading/host_info.hpp"
#include "process/uid_pool.hpp"
#include "similarity/class_similarity.hpp"
#include "spec/lab_spec.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

po::options_description batch_options() {
  po::options_description o("grade batch options");
  o.add_options()
      ("help,h", "show this help")
      ("out", po::value<std::string>(), "output folder: per-student reports, gradebook.csv, summary (required)")
      ("similarity", "after grading, compare every pair of submissions into OUT/similarity (grade similarity)")
      ("roster", po::value<std::string>(), "CSV with columns folder,id[,name,members,section,submitted_at]: names the submissions")
      ("course", po::value<std::string>(), "course file (TOML): due times, extensions, late policy; "
                                          "adds late columns to the gradebook (docs/batch.md)")
      ("jobs,j", po::value<int>(), "gradings at once (default: the cores available)")
      ("regrade", "grade everyone again (default: finished students are skipped)")
      ("only", po::value<std::vector<std::string>>(), "grade only this student id (repeatable; always regrades)")
      ("no-perf", "correctness tests only")
      ("sandbox", po::value<std::string>()->default_value("require"),
       "require (default: exit 3 without a working bubblewrap) | auto | off; every grading uses it")
      ("wall-limit", po::value<double>(), "cap every test's wall-clock limit (seconds)")
      ("seed", po::value<std::uint64_t>(), "the same fresh-data seed for every student")
      ("work-dir", po::value<std::string>(), "builds, runs, caches (default: BUILD_DIR/grade-work as root, "
                                            "else $XDG_CACHE_HOME/parlab or ~/.cache/parlab)")
      ("toolchain", po::value<std::string>(), "compile/toolchain.json to use")
      ("max-unpacked-mb", po::value<std::uint64_t>()->default_value(64), "refuse submissions larger than this unpacked")
      ("max-entries", po::value<std::uint64_t>()->default_value(5000), "refuse submissions with more files and folders")
      ("student-timeout", po::value<double>(), "stop one grading after this many seconds (default: from lab.toml)")
      ("collect", po::value<std::string>(), "only rebuild gradebook and summary of this output folder");
  po::options_description s("Slurm (grade batch LAB CLASS_DIR --out DIR --slurm)");
  s.add_options()
      ("slurm", "submit a job array instead of grading here")
      ("partition", po::value<std::string>(), "Slurm partition (default: the cluster's)")
      ("gpus-per-task", po::value<int>(), "GPUs per array task (default: 1 for GPU labs, else 0)")
      ("time-limit", po::value<int>(), "minutes per array task (default: from lab.toml's limits)")
      ("per-task", po::value<int>()->default_value(10), "submissions per array task")
      ("sbatch-arg", po::value<std::vector<std::string>>(), "extra sbatch option for the array job (repeatable)")
      ("sbatch", po::value<std::string>()->default_value("sbatch"), "the sbatch program");
  po::options_description t("used by the array tasks");
  t.add_options()
      ("id-list", po::value<std::string>(), "grade the ids listed in this file ...")
      ("slice", po::value<std::string>(), "... only slice K/N of them (every N-th from K)")
      ("slurm-submission", po::value<std::string>(), "--collect as the collect job of this Slurm submission");
  o.add(s).add(t);
  return o;
}

void parse_slice(const std::string& text, batch::BatchOptions& o) {
  const auto slash = text.find('/');
  try {
    if (slash == std::string::npos) throw std::invalid_argument("no '/'");
    o.slice_index = std::stoi(text.substr(0, slash));
    o.slice_count = std::stoi(text.substr(slash + 1));
  } catch (const std::exception&) {
    throw UsageError("--slice must be K/N, got '" + text + "'");
  }
  if (o.slice_count < 1 || o.slice_index < 0 || o.slice_index >= o.slice_count) {
    throw UsageError("--slice K/N needs 0 <= K < N, got '" + text + "'");
  }
}

// As root each grading leases two uids of the sandbox's pool (its own and its
// reference's): more jobs than half the pool would wait on each other. Said, not silent.
// Also kept in summary.json's last_run (batch/run_facts.hpp).
int jobs_within_uid_pool(int jobs, std::string& why) {
  if (::geteuid() != 0) return jobs;
  const process::UidPoolConfig pool = process::uid_pool_config_from_environment();
  const int most = std::max(1, static_cast<int>(pool.count / 2));
  if (jobs <= most) return jobs;
  why = "each grading leases 2 of the " + std::to_string(pool.count) + " sandbox uids (" +
        std::to_string(pool.first) + "-" + std::to_string(pool.first + pool.count - 1) +
        "; PARLAB_UID_POOL for more)";
  std::cerr << "grade: batch: --jobs " << jobs << " lowered to " << most << ": " << why << "\n";
  return most;
}


// `grade batch --collect DIR`: the gradebook and summary rebuilt from the records.
int run_collect(const po::variables_map& vm) {
  if (vm.count("lab") || vm.count("out")) throw UsageError("--collect DIR takes no LAB, CLASS_DIR or --out");
  const fs::path out = fs::absolute(vm["collect"].as<std::string>());
  batch::read_manifest(batch::BatchLayout{out}.manifest());  // not a batch folder: say so, create nothing
  // A writer like any other: refused while a batch grades into the folder, except
  // for the collect job of the Slurm submission that does.
  const batch::OutputLock lock = batch::lock_output_folder(
      out, vm.count("slurm-submission") ? vm["slurm-submission"].as<std::string>() : "");
  // What a killed --collect (or run) left half written: no one else writes now (the
  // lock), except a Slurm submission's own tasks, whose run cleans up after them.
  if (!vm.count("slurm-submission")) {
    if (int n = batch::remove_stale_temp_files(out)) {
      std::cerr << "grade: batch: removed " << n << " temporary file(s) of an interrupted run\n";
    }
  }
  batch::CollectCounts c = batch::collect_batch(batch::BatchLayout{out});
  std::cerr << "grade: batch: gradebook of " << c.students << " rows: " << c.finished << " finished, "
            << c.errors << " grader errors, " << c.pending << " pending, " << c.missing << " missing\n";
  return (c.errors || c.pending) ? kExitSomeFailed : kExitAllPassed;
}

// The options of a batch that grades (here, or as Slurm array tasks).
batch::BatchOptions batch_options_from(const po::variables_map& vm) {
  batch::BatchOptions o;
  o.lab_id = vm["lab"].as<std::string>();
  o.class_dir = fs::absolute(vm["class-dir"].as<std::string>());
  o.out_dir = fs::absolute(vm["out"].as<std::string>());
  if (vm.count("roster")) o.roster = fs::absolute(vm["roster"].as<std::string>());
  if (vm.count("toolchain")) o.toolchain = fs::absolute(vm["toolchain"].as<std::string>());
  if (vm.count("course")) {
    o.course = fs::absolute(vm["course"].as<std::string>());
    batch::read_course_deadlines(*o.course);  // a bad file: exit 2 naming file and key, nothing graded
  }
  o.work_root = vm.count("work-dir")
                    ? fs::absolute(vm["work-dir"].as<std::string>())
                    : default_work_root(load_toolchain(o.toolchain ? *o.toolchain : default_toolchain_path()).build_dir);
  o.jobs = vm.count("jobs") ? vm["jobs"].as<int>() : available_cores();
  if (o.jobs < 1) throw UsageError("--jobs must be at least 1");
  o.jobs_asked = o.jobs;
  o.jobs = jobs_within_uid_pool(o.jobs, o.jobs_lowered_because);
  o.regrade = vm.count("regrade") > 0;
  if (vm.count("only")) o.only = vm["only"].as<std::vector<std::string>>();
  o.performance = vm.count("no-perf") == 0;
  o.sandbox_level = checked_sandbox_level(vm["sandbox"].as<std::string>());
  if (vm.count("wall-limit")) {
    o.wall_limit = vm["wall-limit"].as<double>();
    if (!(*o.wall_limit > 0)) throw UsageError("--wall-limit must be > 0 seconds");
  }
  if (vm.count("seed")) o.seed = vm["seed"].as<std::uint64_t>();
  o.limits.max_bytes = vm["max-unpacked-mb"].as<std::uint64_t>() << 20;
  o.limits.max_entries = vm["max-entries"].as<std::uint64_t>();
  if (vm.count("student-timeout")) o.student_timeout_s = vm["student-timeout"].as<double>();
  o.terminal = isatty(STDERR_FILENO) != 0;
  if (vm.count("id-list") != vm.count("slice")) throw UsageError("--id-list and --slice go together");
  if (vm.count("id-list")) {
    o.id_list = fs::absolute(vm["id-list"].as<std::string>());
    parse_slice(vm["slice"].as<std::string>(), o);
    // Concurrent tasks never share a build or run folder.
    o.work_root = o.work_root / "slurm" / o.id_list->parent_path().filename() /
                  ("task-" + std::to_string(o.slice_index));
  }
  return o;
}

// --similarity: the class's copying check beside the gradebook, with the defaults of
// `grade similarity`.
void run_batch_similarity(const batch::BatchOptions& o) {
  const Toolchain t = load_toolchain(o.toolchain ? *o.toolchain : default_toolchain_path());
  const LabSpec lab = load_lab_spec(t.lab(o.lab_id).dir / "lab.toml");
  similarity::SimilarityOptions so;
  so.roster = o.roster;
  const auto s = similarity::run_class_similarity(lab, o.class_dir, o.out_dir / "similarity", so);
  std::cerr << "grade: batch: similarity: " << s.pairs << " pairs, " << s.flagged << " flagged: "
            << (o.out_dir / "similarity" / "index.html").string() << "\n";
}

// --slurm: the job array and its collect job submitted instead of grading here.
int submit_to_slurm(const po::variables_map& vm, const batch::BatchOptions& o) {
  if (o.id_list) throw UsageError("--slurm submits the tasks; it does not go with --id-list");
  batch::SlurmOptions s;
  if (vm.count("partition")) s.partition = vm["partition"].as<std::string>();
  if (vm.count("gpus-per-task")) s.gpus_per_task = vm["gpus-per-task"].as<int>();
  if (vm.count("time-limit")) s.time_limit_minutes = vm["time-limit"].as<int>();
  s.per_task = vm["per-task"].as<int>();
  if (s.per_task < 1) throw UsageError("--per-task must be at least 1");
  if (vm.count("sbatch-arg")) s.sbatch_args = vm["sbatch-arg"].as<std::vector<std::string>>();
  s.sbatch = vm["sbatch"].as<std::string>();
  return batch::submit_slurm_batch(o, s);
}

}  // namespace

int run_batch_command(const std::vector<std::string>& args) {
  po::options_description visible = batch_options();
  po::options_description all = visible;
  all.add_options()("lab", po::value<std::string>(), "")("class-dir", po::value<std::string>(), "");
  po::positional_options_description positional;
  positional.add("lab", 1).add("class-dir", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) + " (see grade batch --help)");
  }
  if (vm.count("help")) {
    std::cout << "usage: grade batch LAB CLASS_DIR --out DIR [options]   grade a class here\n"
                 "       grade batch LAB CLASS_DIR --out DIR --slurm      grade it as a Slurm job array\n"
                 "       grade batch --collect DIR                        rebuild gradebook and summary\n\n"
                 "CLASS_DIR holds one folder or archive (.zip, .tar, .tar.gz) per student, or a\n"
                 "Gradescope export. Re-running the same command finishes what is left; see docs/batch.md.\n"
                 "exit codes: 0 every submission has a result, 1 some could not be graded (re-run to\n"
                 "retry), 2 usage error, 3 environment problem (nothing blamed on students)\n\n"
              << visible;
    return kExitAllPassed;
  }
  if (vm.count("collect")) return run_collect(vm);
  if (!vm.count("lab") || !vm.count("class-dir")) throw UsageError("grade batch needs LAB and CLASS_DIR (see grade batch --help)");
  if (!vm.count("out")) throw UsageError("grade batch needs --out DIR, the output folder");

  const batch::BatchOptions o = batch_options_from(vm);
  if (vm.count("slurm") && vm.count("similarity")) {
    throw UsageError("--similarity runs after a batch graded here; for a Slurm batch run grade similarity "
                     "on the class folder once --collect is done");
  }
  if (vm.count("slurm")) return submit_to_slurm(vm, o);
  // Refuse up front (exit 3, with the fix) rather than fail every student's grading.
  if (o.sandbox_level == "require") make_runner_for_level(o.sandbox_level);
  require_writable_work_root(o.work_root);
  const int rc = batch::run_batch(o);
  if (vm.count("similarity")) run_batch_similarity(o);
  return rc;
}

}  // namespace parlab::grader
