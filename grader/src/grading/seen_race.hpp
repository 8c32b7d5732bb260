#pragma once
// A data race as a checker reported it, for the rule that a race is the task's
// (grading/task_races): the simulator's race check or compute-sanitizer's racecheck.
#include <string>

namespace parlab::grader {

// Who saw it ("simulator", "compute-sanitizer racecheck"), one short line, and its
// whole text (untrusted: reporters escape it).
struct SeenRaceReport {
  std::string checker;
  std::string summary;
  std::string message;
};

}  // namespace parlab::grader
