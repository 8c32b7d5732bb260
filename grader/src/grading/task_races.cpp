#include "grading/task_races.hpp"

namespace parlab::grader {

void TaskRaces::note(const TestSpec& t, const std::vector<SimFinding>& findings) {
  for (const SimFinding& finding : findings) {
    if (finding.kind != "data_race") continue;
    note_race(t, {"simulator", finding.summary.empty() ? finding.kind : finding.summary,
                  finding.message});
    return;
  }
}

void TaskRaces::note_race(const TestSpec& t, const SeenRaceReport& race) {
  first_by_task_.emplace(t.task, SeenRace{t.name, race});  // the first one stays
}

void TaskRaces::apply(const std::vector<TestSpec>& tests,
                      std::map<std::string, TestResult>& done) const {
  for (const TestSpec& t : tests) {
    const auto race = first_by_task_.find(t.task);
    const auto result = done.find(t.name);
    if (t.device != Device::gpu || race == first_by_task_.end() || result == done.end()) continue;
    TestResult& r = result->second;
    if (r.status != TestStatus::passed || race->second.test == t.name) continue;
    const SeenRaceReport& seen = race->second.report;
    r.status = TestStatus::failed;
    r.points = 0;
    r.message = "right answer here, but task '" + t.task + "' has a data race, seen in test '" +
                race->second.test + "' (" + seen.checker + ": " + seen.summary +
                "): every test of a task runs the same code, and a GPU may compute another "
                "answer on any run\nthe " + seen.checker + " found:\n  - " + seen.message;
  }
}

}  // namespace parlab::grader
