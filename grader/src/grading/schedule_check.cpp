#include "grading/schedule_check.hpp"

namespace parlab::grader {

std::string reversed_run_name(const std::string& slug) { return slug + "-reversed-order"; }

std::map<std::string, std::string> reversed_schedule_environment() {
  return {{"PARLAB_SIM_SCHEDULE", "reverse"},
          {"PARLAB_SIM_RACE_CHECK", "0"},
          {"PARLAB_SIM_COUNTERS", "0"}};
}

void apply_schedule_check(TestResult& result, const ReversedRun& rerun, bool hidden) {
  if (result.status != TestStatus::passed || rerun.same_answer) return;
  result.status = TestStatus::failed;
  result.points = 0;
  result.message =
      "right answer in the simulator's usual thread order, wrong when the blocks and their "
      "threads start in reverse order: the answer depends on the order threads run in, and "
      "a GPU promises none. Look for a thread that reads what another thread writes with no "
      "__syncthreads() between them, or an update to a shared value that is not atomic.";
  result.message += hidden ? "\nin reverse order: wrong result on hidden data"
                           : "\nin reverse order: " + rerun.difference;
  result.mismatch.reset();
}

}  // namespace parlab::grader
