#pragma once
// Batch progress on stderr. On a terminal: one live line (done/total, failures so far,
// ETA), redrawn in place, with problems printed above it. Otherwise (a log file, CI,
// Slurm): one plain line per finished student.
#include <chrono>
#include <iosfwd>
#include <mutex>
#include <string>

#include "batch/student_record.hpp"

namespace parlab::grader::batch {

class ProgressReporter {
 public:
  // `jobs`: gradings at once, for the ETA.
  ProgressReporter(int total, bool terminal, std::ostream& out, int jobs = 1);

  void finished(const StudentRecord& record);  // thread-safe
  void done();                                 // ends the live line

  // "3m20s", "45s": for the ETA.
  static std::string duration_text(double seconds);
  // The live line's text, e.g. "[12/100] 2 failed, ETA 3m20s" ("ETA estimating..."
  // until a grading has finished).
  std::string status_line() const;

 private:
  int total_;
  bool terminal_;
  std::ostream& out_;
  int done_ = 0;
  int failed_ = 0;
  int jobs_ = 1;
  int graded_ = 0;                 // finished with a grading that ran, for the ETA
  double graded_seconds_sum_ = 0;  // their own durations (eta_estimate.hpp)
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  mutable std::mutex mutex_;
};

}  // namespace parlab::grader::batch
