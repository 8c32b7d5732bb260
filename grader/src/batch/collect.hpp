#pragma once
// Rebuilds the derived files of a batch output folder (gradebook.csv, summary.json,
// summary.md) from batch.json and the per-student records. Run at the end of every
// local batch, by the Slurm collect job, and by `grade batch --collect DIR`.
#include <vector>

#include "batch/batch_layout.hpp"
#include "batch/student_record.hpp"

namespace parlab::grader::batch {

struct CollectCounts {
  int students = 0;  // rows, missing roster entries included
  int finished = 0;  // graded, build_failed, rejected
  int errors = 0;
  int pending = 0;
  int missing = 0;
  int regrade_left = 0;  // finished, but not yet by the --regrade under way
};

// Every manifest student (by id) and every missing roster entry, in gradebook order.
std::vector<StudentRecord> load_records(const BatchLayout& layout, const BatchManifest& manifest);

// Ends the --regrade marker once every student carries its token.
// Throws UsageError when `layout.out` is not a batch output folder.
CollectCounts collect_batch(const BatchLayout& layout);

}  // namespace parlab::grader::batch
