#pragma once
// In the simulator (grading/mode_extras; docs/simulation.md): every child gets the
// simulator's settings and a fresh order seed; a passed GPU correctness test is re-run
// in other orders (grading/schedule_check) and the simulator's findings come into its
// feedback (grading/sim_mode), its memory-access hints judged against the reference's
// counters; a GPU performance test with a [tests.sim] table is graded by a counter of
// the submission's run against the reference's (grading/sim_counters); a data race in
// any run of a task fails that task's other passed tests too (grading/task_races).
#include <map>
#include <optional>
#include <string>

#include "grading/mode_extras.hpp"
#include "grading/schedule_check.hpp"
#include "grading/sim_counters.hpp"
#include "grading/sim_mode.hpp"
#include "grading/task_orders.hpp"
#include "grading/task_races.hpp"

namespace parlab::grader {

class SimExtras : public ModeExtras {
 public:
  void prepare(GradingContext& ctx, GradeResult& result) override;
  bool prepare_reference(GradingContext& ctx, const TestSpec& t) override;
  void before_tests(GradingContext& ctx, GradeResult& result) override;
  void after_correctness(GradingContext& ctx, const TestSpec& t, const TaskRun& run,
                         TestResult& r, std::vector<std::string>& notes) override;
  bool grades_performance(const TestSpec& t) const override;
  TestResult grade_performance(GradingContext& ctx, const TestSpec& t,
                               const std::map<std::string, TestResult>& done) override;
  void after_performance(GradingContext& ctx, const TestSpec& t, TestResult& r,
                         std::vector<std::string>& notes) override;
  void after_tests(GradingContext& ctx, std::map<std::string, TestResult>& done) override;

 private:
  bool counters_on(const GradingContext& ctx) const;
  std::optional<CounterTotals> reference_counters_on(GradingContext& ctx, const TestSpec& t,
                                                     const std::string& dataset, bool scored);
  ReorderedRun run_in_another_order(GradingContext& ctx, const TestSpec& t, int n);
  ReferenceCountersSource hint_counters_source(GradingContext& ctx, const TestSpec& t);

  int reruns_wanted_ = 0;  // re-runs in other orders of each passed GPU test
  TaskRaces races_;        // the first data race seen in each task's runs
  TaskOrders orders_;      // the first test of each task whose answer changed in another order
  // The reference's counters per sim-checked test (nothing: counters off).
  std::map<std::string, std::optional<CounterTotals>> reference_counters_;
  // The reference's counters on a GPU correctness test's data, to judge the
  // memory-access hints against, counted the first time a hint needs them.
  std::map<std::string, std::optional<CounterTotals>> reference_hint_counters_;
};

// The test as its sim check runs it: its task on the check's small dataset, once.
TestSpec sim_check_test(const TestSpec& t);

}  // namespace parlab::grader
