#pragma once
// One thing the simulator found in a run, as the test's feedback lists it: from the
// runtime's findings channel (a barrier some threads exited before, a data race, ...),
// or made by the grader from the run's facts (grading/memory_hints).
#include <string>

namespace parlab::grader {

struct SimFinding {
  std::string kind;     // "exited_before_barrier", "data_race", ... (sim/src/report)
  std::string summary;  // one short line with the place (may be empty)
  std::string message;  // the explanation (the runtime's text is untrusted; reporters escape it)
};

}  // namespace parlab::grader
