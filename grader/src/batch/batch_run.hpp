#pragma once
// `grade batch` on one machine, and each Slurm array task (a slice of the class):
// lock the output folder, list the class, check the reference once, grade whoever is
// not finished on `jobs` threads, rebuild the gradebook. Exit codes: docs/batch.md.
#include <filesystem>

#include "batch/batch_layout.hpp"
#include "batch/batch_options.hpp"
#include "batch/class_list.hpp"
#include "compile/toolchain.hpp"
#include "process/unique_fd.hpp"
#include "spec/lab_spec.hpp"

namespace parlab::grader::batch {

// The toolchain and lab.toml for `o.lab_id`; throws UsageError for an unknown lab.
struct BatchLab {
  Toolchain toolchain;
  LabSpec lab;
};
BatchLab load_batch_lab(const BatchOptions& o);

// The class as the options see it (class folder + roster).
ClassList list_class(const BatchOptions& o);

// This batch's private folder under the work root (unpacked submissions, child logs).
std::filesystem::path batch_work_dir(const BatchOptions& o);

// Who this run grades: the --only ids, or this Slurm slice of the id list, or everyone;
// finished students are skipped unless regrading. Throws UsageError for an unknown id.
std::vector<Student> select_students(const BatchOptions& o, const ClassList& list, const BatchLayout& layout);

// Holds the output folder's (or a Slurm slice's) writer lock; throws UsageError when
// another `grade batch` holds it.
process::UniqueFd lock_output(const std::filesystem::path& lock_file);

int run_batch(const BatchOptions& o);

}  // namespace parlab::grader::batch
