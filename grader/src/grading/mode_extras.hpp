#pragma once
// The one seam where a device mode adds to the grading's steps (grading/grade_session):
// the steps call these hooks for every test, and only the mode's object acts. Host and
// none add nothing; a GPU checks passed correctness tests under compute-sanitizer
// (grading/gpu_extras); the simulator re-runs them in other orders, brings in its
// findings, and grades performance tests by its counters (grading/sim_extras).
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "grading/grading_context.hpp"

namespace parlab::grader {

class ModeExtras {
 public:
  virtual ~ModeExtras() = default;
  // Once the device is chosen: the runners' environment, the mode's note.
  virtual void prepare(GradingContext&, GradeResult&) {}
  // The reference-runs step, for each test that runs here: true when this mode took
  // care of the test's reference runs itself (the step then runs none for it).
  virtual bool prepare_reference(GradingContext&, const TestSpec&) { return false; }
  // After the build, before the first test: notes on what this mode checks.
  virtual void before_tests(GradingContext&, GradeResult&) {}
  // After a correctness test that ran here: `run` is its run.
  virtual void after_correctness(GradingContext&, const TestSpec&, const TaskRun& /*run*/,
                                 TestResult&, std::vector<std::string>& /*notes*/) {}
  // A performance test this mode grades its own way instead of measuring it.
  virtual bool grades_performance(const TestSpec&) const { return false; }
  virtual TestResult grade_performance(GradingContext& ctx, const TestSpec& t,
                                       const std::map<std::string, TestResult>& done);
  // After a performance test that ran here.
  virtual void after_performance(GradingContext&, const TestSpec&, TestResult&,
                                 std::vector<std::string>& /*notes*/) {}
  // Once every test ran, before the result is put together: what the runs of one test
  // tell about the others (the simulator: a race in any run of a task).
  virtual void after_tests(GradingContext&, std::map<std::string, TestResult>& /*done*/) {}
};

// The extras of `mode` (host and none: none).
std::unique_ptr<ModeExtras> make_mode_extras(DeviceMode mode);

}  // namespace parlab::grader
