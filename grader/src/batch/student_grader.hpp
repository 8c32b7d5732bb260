#pragma once
// Grades one student of a batch: unpack into a fresh folder of its own, run a `grade`
// child on it exactly like `grade LAB DIR`, save the reports. The student's problems
// (bad archive, no build, crashes) become a finished record; the grader's problems
// (infrastructure_failure.hpp) are retried a few times with a pause and then become
// an error record that the next run retries.
#include <filesystem>

#include "batch/batch_layout.hpp"
#include "batch/batch_options.hpp"
#include "batch/class_list.hpp"
#include "batch/record_identity.hpp"
#include "batch/student_record.hpp"
#include "spec/lab_spec.hpp"

namespace parlab::grader::batch {

struct StudentGrading {
  StudentRecord record;
  bool environment_broken = false;  // exit 3 on every attempt: no point grading the others
};

// What every record of this run shares: the grader, the lab, the --regrade token.
struct GradingContext {
  RecordIdentity base;        // grader_version, grader_hash, lab_hash set; the rest per student
  std::string regrade_token;  // "" outside a --regrade
  int max_attempts = 3;       // gradings per student per run when the grader fails
  double retry_pause_s = 2;   // before the 2nd attempt; doubles after each
};

// A finished grading whose performance test was inconclusive (the machine was busy
// while it measured) is measured again while attempts remain; the last one is kept.
bool grade_again_for_inconclusive(const GradeResult& result, int attempt, int max_attempts);

// The identity `student` would be graded under now (hashes its submission).
RecordIdentity current_identity(const GradingContext& context, const Student& student);

class StudentGrader {
 public:
  // `work` is this batch's private folder for unpacked submissions and child logs.
  StudentGrader(const BatchOptions& options, const LabSpec& lab, BatchLayout layout,
                std::filesystem::path work, GradingContext context);

  // Thread-safe: each call touches only the student's own folders.
  StudentGrading grade(const Student& student) const;

 private:
  const BatchOptions& options_;
  const LabSpec& lab_;
  BatchLayout layout_;
  std::filesystem::path work_;
  GradingContext context_;
  double time_cap_;
};

}  // namespace parlab::grader::batch
