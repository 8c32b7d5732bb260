#pragma once
// On a GPU (grading/mode_extras): a passed visible GPU correctness test runs again
// under compute-sanitizer (grading/gpu_sanitizer); a toolkit without it is said.
#include "grading/mode_extras.hpp"

namespace parlab::grader {

class GpuExtras : public ModeExtras {
 public:
  void before_tests(GradingContext& ctx, GradeResult& result) override;
  void after_correctness(GradingContext& ctx, const TestSpec& t, const TaskRun& run,
                         TestResult& r, std::vector<std::string>& notes) override;
};

}  // namespace parlab::grader
