#pragma once
// `grade batch` on one machine, and each Slurm array task (a slice of the class):
// lock the output folder, list the class, check the reference once, grade whoever is
// not finished on `jobs` threads, rebuild the gradebook. Exit codes: docs/batch.md.
#include <filesystem>

#include "batch/batch_layout.hpp"
#include "batch/batch_options.hpp"
#include "batch/class_list.hpp"
#include "batch/output_lock.hpp"
#include "batch/student_grader.hpp"
#include "compile/toolchain.hpp"
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

// This batch's private folder under the work root (unpacked submissions, child logs,
// the children's --work-dir with the reference check): two batches with one --work-dir
// never share a build or run folder.
std::filesystem::path batch_work_dir(const BatchOptions& o);

// What every record of this run is graded under: grader and lab hashes, the --regrade
// token under way (`regrade_token`, "" when none).
GradingContext grading_context(const BatchLab& b, const std::string& regrade_token);

// Why a finished student must be graded again, or "" when its record is current: the
// record does not read back, an interrupted --regrade, or its identity changed.
std::string stale_reason(const BatchLayout& layout, const GradingContext& context, const Student& student);

// Who this run grades: the --only ids, or this Slurm slice of the id list, or everyone;
// finished students are skipped unless their record is stale (stale_reason, logged to
// `log`). Throws UsageError for an unknown id.
std::vector<Student> select_students(const BatchOptions& o, const ClassList& list, const BatchLayout& layout,
                                     const GradingContext& context, std::ostream& log);

// The Slurm submission a task or collect job belongs to: the stamp of OUT/slurm/<stamp>/.
std::string slurm_submission_of(const BatchOptions& o);

int run_batch(const BatchOptions& o);

// Keeps the --course file in the output folder as course.toml (removed without
// --course): the gradebook's late columns are built from it by every collect.
void keep_course_file(const BatchOptions& o, const BatchLayout& layout);

}  // namespace parlab::grader::batch
