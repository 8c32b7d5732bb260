#pragma once
// Grades students on `jobs` threads, each running one `grade` child at a time. Builds
// and correctness runs overlap; performance measurements serialize themselves through
// the machine's measurement lock (grading/measurement_lock.hpp), not here.
#include <string>
#include <vector>

#include "batch/class_list.hpp"
#include "batch/progress_reporter.hpp"
#include "batch/run_facts.hpp"
#include "batch/student_grader.hpp"

namespace parlab::grader::batch {

struct ScheduleOutcome {
  int finished = 0;                  // students with a final record
  int errors = 0;                    // grader-side failures (retried next run)
  bool environment_broken = false;   // a child reported an environment error: stopped early
  std::string environment_reason;
  std::vector<RetriedGrading> retried;  // gradings that took more than one attempt
};

ScheduleOutcome grade_all(const std::vector<Student>& students, int jobs, const StudentGrader& grader,
                          ProgressReporter& progress);

}  // namespace parlab::grader::batch
