#pragma once
// Everything `grade batch` was asked to do (cli/batch_command.cpp fills it).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "batch/safe_tree_writer.hpp"
#include "spec/lab_spec.hpp"

namespace parlab::grader::batch {

struct BatchOptions {
  std::string lab_id;
  std::filesystem::path class_dir;
  std::filesystem::path out_dir;
  std::optional<std::filesystem::path> roster;
  std::optional<std::filesystem::path> course;       // --course: due times and late policy (read already)
  std::filesystem::path work_root;                   // resolved (default BUILD/grade-work)
  std::optional<std::filesystem::path> toolchain;    // passed on to every `grade` child
  int jobs = 1;
  int jobs_asked = 1;                                // --jobs as given (or the cores)
  std::string jobs_lowered_because;                  // why `jobs` is fewer (the uid pool); empty if not
  bool regrade = false;
  std::vector<std::string> only;                     // grade just these ids (always regraded)
  bool performance = true;
  std::string sandbox_level = "require";             // passed on to every `grade` child
  std::optional<double> wall_limit;
  std::optional<std::uint64_t> seed;
  UnpackLimits limits;
  double student_timeout_s = 0;                      // 0: derived from lab.toml
  // Slurm array tasks: grade slice `slice_index` of `slice_count` of the ids listed
  // in `id_list` (written when the job was submitted).
  std::optional<std::filesystem::path> id_list;
  int slice_index = 0;
  int slice_count = 1;
  bool terminal = false;                             // stderr is a terminal: live progress line

  bool is_slurm_task() const { return id_list.has_value(); }
};

// The arguments of the `grade LAB SUBMISSION ...` child for one submission (or for
// the reference, with `submission` empty), writing its JSON result to `json`.
std::vector<std::string> child_grade_args(const BatchOptions& o, const std::filesystem::path& submission,
                                          const std::filesystem::path& json);

// How long one grading may take before the batch stops it as hung: generous, from the
// lab's limits (every test's wall limit for the submission and 4x for the reference,
// the measurement budgets, a build allowance, and time waiting for the measurement lock).
double grading_time_cap(const LabSpec& lab, const BatchOptions& o);

}  // namespace parlab::grader::batch
