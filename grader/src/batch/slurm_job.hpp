#pragma once
// `grade batch ... --slurm`: the class is graded by a Slurm job array, one task per
// slice of the submissions, each task running `grade batch` on its slice into the
// shared output folder; a dependent job rebuilds the gradebook when all tasks ended
// (afterany: a failed task leaves its students pending, never a missing row).
#include <string>
#include <vector>

#include "batch/batch_options.hpp"

namespace parlab::grader::batch {

struct SlurmOptions {
  std::string partition;                 // empty: the cluster's default
  int gpus_per_task = -1;                // -1: 1 for GPU labs (lab.toml kind), else 0
  int time_limit_minutes = 0;            // 0: from lab.toml's limits (grading_time_cap)
  int per_task = 10;                     // submissions per array task
  std::vector<std::string> sbatch_args;  // extra sbatch options for the array job
  std::string sbatch = "sbatch";         // the program (name on PATH or a path)
};

struct ArrayJob {
  std::string job_name;
  int tasks = 1;
  int cpus_per_task = 1;
  int gpus_per_task = 0;
  int time_limit_minutes = 60;
  std::string partition;
  bool exclusive = false;           // performance measured: alone on the node
  std::string log_pattern;          // --output, with %a for the task index
  std::vector<std::string> command; // the task's `grade batch ...` (slice appended)
};

// The sbatch scripts, as text (unit-tested). Arguments are single-quoted for bash.
std::string array_job_script(const ArrayJob& job);
// The collect job shares the output folder's lock with the tasks of `submission`.
std::string collect_job_script(const std::string& grade_exe, const std::string& out_dir,
                               const std::string& log_file, const std::string& partition,
                               const std::string& submission = "");
std::string shell_quote(const std::string& arg);

// Lists the class, writes the manifest and scripts under OUT/slurm/<stamp>/, submits
// the array and the collect job, prints their ids. Returns the exit code.
int submit_slurm_batch(const BatchOptions& o, const SlurmOptions& s);

}  // namespace parlab::grader::batch
