#pragma once
// A data race seen in any run of a task's code fails every test of that task in the
// grading (docs/simulation.md, "A race in one run is the task's"). Each test runs the
// same kernels on other data, in other orders; a path a kernel takes only now and then,
// on some data or at random, must not pass the tests whose runs missed it. Pure: the sim
// mode notes each test's findings as they come and applies them once all tests ran.
#include <map>
#include <string>
#include <vector>

#include "grading/seen_race.hpp"
#include "grading/sim_mode.hpp"
#include "result/result.hpp"
#include "spec/lab_spec.hpp"

namespace parlab::grader {

class TaskRaces {
 public:
  // The findings of test `t`'s runs in the simulator: its task keeps the first data
  // race among them.
  void note(const TestSpec& t, const std::vector<SimFinding>& findings);
  // A race another checker saw in test `t`'s runs: its task keeps the first one.
  void note_race(const TestSpec& t, const SeenRaceReport& race);
  // Every passed GPU test of a task with a race seen in another test's runs: failed,
  // naming that test and the race.
  void apply(const std::vector<TestSpec>& tests, std::map<std::string, TestResult>& done) const;

 private:
  struct SeenRace {
    std::string test;  // where it was seen first
    SeenRaceReport report;
  };
  std::map<std::string, SeenRace> first_by_task_;
};

}  // namespace parlab::grader
