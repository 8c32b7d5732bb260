#pragma once
// On a GPU (grading/mode_extras): a passed visible GPU correctness test runs again
// under compute-sanitizer (grading/gpu_sanitizer); a toolkit without it is said. A race
// racecheck finds in one test fails the task's other passed tests, as in the simulator
// (grading/task_races), so both machines give one verdict.
#include "grading/mode_extras.hpp"
#include "grading/task_races.hpp"

namespace parlab::grader {

class GpuExtras : public ModeExtras {
 public:
  void before_tests(GradingContext& ctx, GradeResult& result) override;
  void after_correctness(GradingContext& ctx, const TestSpec& t, const TaskRun& run,
                         TestResult& r, std::vector<std::string>& notes) override;
  void after_tests(GradingContext& ctx, std::map<std::string, TestResult>& done) override;

 private:
  TaskRaces races_;  // the first race racecheck found in each task's runs
};

}  // namespace parlab::grader
