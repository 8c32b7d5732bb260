#include "batch/slurm_job.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "batch/batch_layout.hpp"
#include "batch/batch_manifest.hpp"
#include "batch/batch_run.hpp"
#include "batch/child_grade.hpp"
#include "batch/collect.hpp"
#include "batch/regrade_marker.hpp"
#include "core/errors.hpp"
#include "util/atomic_write.hpp"
#include "util/program_on_path.hpp"

namespace fs = std::filesystem;

namespace parlab::grader::batch {
namespace {

fs::path find_program(const std::string& name) {
  if (const auto found = program_on_path(name)) return *found;
  throw EnvironmentError(name + " not found on PATH: --slurm needs the Slurm client tools "
                         "(Debian: slurm-client), or give --sbatch PATH");
}

std::string timestamp() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", std::gmtime(&t));
  return buf;
}

// Runs sbatch --parsable and returns the job id ("123" of "123;cluster").
std::string submit(const fs::path& sbatch, std::vector<std::string> args, const fs::path& log) {
  args.insert(args.begin(), "--parsable");
  ChildRun run = run_child(sbatch, args, log, 120);
  std::ifstream in(log);
  std::string out, line;
  while (std::getline(in, line)) out += line + "\n";
  if (run.exit_code != 0) {
    throw EnvironmentError("sbatch failed (" + run.describe() + "): " + out);
  }
  std::string id = out.substr(0, out.find_first_of(";\n"));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
    throw EnvironmentError("sbatch printed no job id: " + out);
  }
  return id;
}

// The task's own `grade batch` command line: the same options, on a slice of the ids.
std::vector<std::string> task_command(const BatchOptions& o, const fs::path& ids) {
  std::vector<std::string> c = {self_executable().string(), "batch", o.lab_id, fs::absolute(o.class_dir).string(),
                                "--out", fs::absolute(o.out_dir).string(), "--id-list", ids.string(),
                                "--work-dir", o.work_root.string(), "--jobs", std::to_string(o.jobs),
                                "--max-unpacked-mb", std::to_string(o.limits.max_bytes >> 20),
                                "--max-entries", std::to_string(o.limits.max_entries)};
  if (o.roster) c.insert(c.end(), {"--roster", fs::absolute(*o.roster).string()});
  if (o.toolchain) c.insert(c.end(), {"--toolchain", fs::absolute(*o.toolchain).string()});
  c.insert(c.end(), {"--sandbox", o.sandbox_level});
  if (!o.performance) c.push_back("--no-perf");
  if (o.wall_limit) c.insert(c.end(), {"--wall-limit", std::to_string(*o.wall_limit)});
  if (o.seed) c.insert(c.end(), {"--seed", std::to_string(*o.seed)});
  if (o.student_timeout_s > 0) c.insert(c.end(), {"--student-timeout", std::to_string(o.student_timeout_s)});
  // A whole-class --regrade is the marker the submitter wrote; the tasks' --regrade
  // only forces the listed ids of an --only submission.
  if (!o.only.empty()) c.push_back("--regrade");
  return c;
}

}  // namespace

std::string shell_quote(const std::string& arg) {
  std::string out = "'";
  for (char c : arg) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string array_job_script(const ArrayJob& j) {
  std::string s = "#!/bin/bash\n# Written by grade batch --slurm: each array task grades one slice of the class.\n";
  s += "#SBATCH --job-name=" + j.job_name + "\n";
  s += "#SBATCH --array=0-" + std::to_string(j.tasks - 1) + "\n";
  s += "#SBATCH --cpus-per-task=" + std::to_string(j.cpus_per_task) + "\n";
  if (j.gpus_per_task > 0) s += "#SBATCH --gpus-per-task=" + std::to_string(j.gpus_per_task) + "\n";
  s += "#SBATCH --time=" + std::to_string(j.time_limit_minutes) + "\n";
  if (!j.partition.empty()) s += "#SBATCH --partition=" + j.partition + "\n";
  if (j.exclusive) s += "#SBATCH --exclusive\n";
  s += "#SBATCH --output=" + j.log_pattern + "\n";
  std::string cmd = "exec";
  for (const std::string& a : j.command) cmd += " " + shell_quote(a);
  s += cmd + " --slice \"${SLURM_ARRAY_TASK_ID}/" + std::to_string(j.tasks) + "\"\n";
  return s;
}

std::string collect_job_script(const std::string& grade_exe, const std::string& out_dir,
                               const std::string& log_file, const std::string& partition,
                               const std::string& submission) {
  std::string s = "#!/bin/bash\n# Written by grade batch --slurm: the gradebook, once every array task ended.\n";
  s += "#SBATCH --job-name=parlab-collect\n#SBATCH --cpus-per-task=1\n#SBATCH --time=10\n";
  if (!partition.empty()) s += "#SBATCH --partition=" + partition + "\n";
  s += "#SBATCH --output=" + log_file + "\n";
  s += "exec " + shell_quote(grade_exe) + " batch --collect " + shell_quote(out_dir);
  if (!submission.empty()) s += " --slurm-submission " + shell_quote(submission);
  s += "\n";
  return s;
}

int submit_slurm_batch(const BatchOptions& o, const SlurmOptions& so) {
  const BatchLab b = load_batch_lab(o);
  const BatchLayout layout{fs::absolute(o.out_dir)};
  const ClassList list = list_class(o);
  const OutputLock lock = lock_output_folder(layout.out, "");
  remove_stale_temp_files(layout.out);
  write_file_atomically(layout.manifest(), manifest_json_text(make_manifest(b.lab, list, o.class_dir, o.performance)));
  keep_course_file(o, layout);
  const std::string token = o.regrade ? start_regrade(layout) : pending_regrade(layout).value_or("");
  const std::vector<Student> todo = select_students(o, list, layout, grading_context(b, token), std::cerr);
  if (todo.empty()) {
    std::cerr << "grade: batch: every submission is graded already; rebuilding the gradebook\n";
    collect_batch(layout);
    return kExitAllPassed;
  }
  const fs::path sbatch = find_program(so.sbatch);
  // Unique per submission: tasks of an earlier one may still read their ids.txt.
  const std::string stamp = timestamp() + "-" + std::to_string(::getpid());
  const fs::path dir = layout.slurm_dir() / stamp;
  fs::create_directories(dir);
  std::string ids;
  for (const Student& s : todo) ids += s.id + "\n";
  write_file_atomically(dir / "ids.txt", ids);

  ArrayJob job;
  job.job_name = "parlab-" + o.lab_id;
  job.tasks = static_cast<int>((todo.size() + so.per_task - 1) / so.per_task);
  job.cpus_per_task = o.jobs;
  job.gpus_per_task = so.gpus_per_task >= 0 ? so.gpus_per_task : (b.lab.kind == Device::gpu ? 1 : 0);
  job.partition = so.partition;
  job.exclusive = o.performance;
  job.log_pattern = (dir / "task-%a.log").string();
  job.command = task_command(o, dir / "ids.txt");
  if (so.time_limit_minutes > 0) {
    job.time_limit_minutes = so.time_limit_minutes;
  } else {
    // A slice plus the task's reference check, at the cap of each grading; generous on purpose.
    const double cap = grading_time_cap(b.lab, o);
    const double per_task = static_cast<double>(so.per_task) / std::max(1, o.jobs) * cap + cap;
    job.time_limit_minutes = static_cast<int>(std::ceil(per_task / 60)) + 5;
  }
  write_file_atomically(dir / "array.sbatch", array_job_script(job));
  write_file_atomically(dir / "collect.sbatch",
                        collect_job_script(self_executable().string(), layout.out.string(),
                                           (dir / "collect.log").string(), so.partition, stamp));

  std::vector<std::string> array_args = so.sbatch_args;
  array_args.push_back((dir / "array.sbatch").string());
  const std::string array_id = submit(sbatch, array_args, dir / "sbatch-array.out");
  const std::string collect_id =
      submit(sbatch, {"--dependency=afterany:" + array_id, (dir / "collect.sbatch").string()},
             dir / "sbatch-collect.out");
  nlohmann::json jobs = {{"array_job", array_id}, {"collect_job", collect_id}, {"tasks", job.tasks},
                         {"students", todo.size()}, {"folder", dir.string()}};
  write_file_atomically(dir / "jobs.json", jobs.dump(2) + "\n");
  write_file_atomically(layout.slurm_dir() / "latest.json", jobs.dump(2) + "\n");
  std::cout << "submitted array job " << array_id << " (" << job.tasks << " tasks, " << todo.size()
            << " submissions) and collect job " << collect_id << "\n"
            << "gradebook: " << layout.gradebook().string() << " once job " << collect_id
            << " has run (or: grade batch --collect " << layout.out.string() << ")\n";
  return kExitAllPassed;
}

}  // namespace parlab::grader::batch
