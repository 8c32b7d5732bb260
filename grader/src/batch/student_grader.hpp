#pragma once
// Grades one student of a batch: unpack into a fresh folder of its own, run a `grade`
// child on it exactly like `grade LAB DIR`, save the reports. The student's problems
// (bad archive, no build, crashes) become a finished record; the grader's problems
// become an error record that the next run retries.
#include <filesystem>

#include "batch/batch_layout.hpp"
#include "batch/batch_options.hpp"
#include "batch/class_list.hpp"
#include "batch/student_record.hpp"
#include "spec/lab_spec.hpp"

namespace parlab::grader::batch {

struct StudentGrading {
  StudentRecord record;
  bool environment_broken = false;  // the child said exit 3: no point grading the others
};

class StudentGrader {
 public:
  // `work` is this batch's private folder for unpacked submissions and child logs.
  StudentGrader(const BatchOptions& options, const LabSpec& lab, BatchLayout layout,
                std::filesystem::path work);

  // Thread-safe: each call touches only the student's own folders.
  StudentGrading grade(const Student& student) const;

 private:
  const BatchOptions& options_;
  const LabSpec& lab_;
  BatchLayout layout_;
  std::filesystem::path work_;
  double time_cap_;
};

}  // namespace parlab::grader::batch
