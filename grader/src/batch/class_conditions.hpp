#pragma once
// Two parts of the class summary an instructor reads before the scores: where and how
// the class was graded (simulator or GPU, and which tests could not be graded there),
// who crashed, timed out or exited wrongly in a test (graded rows whose points may hide
// a run that went wrong, not only the rows that did not build), and who must be graded
// on a GPU to be settled.
#include <nlohmann/json.hpp>
#include <vector>

#include "batch/student_record.hpp"

namespace parlab::grader::batch {

// {"devices": ["simulator, on the CPU (...)"], "modes": ["sim"],
//  "not_graded_tests": [{"name", "points", "students", "reason"}]}
nlohmann::json graded_where(const std::vector<StudentRecord>& records);

// [{"id", "name", "reason": "crashed (killed by a signal) in 'heat, small'; ..."}]
nlohmann::json run_problems(const std::vector<StudentRecord>& records);

// Students whose own code stopped the simulator at a feature it does not run: those
// tests are left out of their total (their share of the reachable score counts only
// what the simulator graded), so they are graded on a GPU to be settled.
// [{"id", "name", "points", "reason": "'sum' and 'max' (20 points): needs a GPU (...)"}]
nlohmann::json needs_gpu_grading(const std::vector<StudentRecord>& records);

// "Graded on: simulator, on the CPU (...). Not graded there: 'x' (3 points, 30
// students): need a GPU." One paragraph for the Markdown page.
std::string graded_where_markdown(const nlohmann::json& where);

}  // namespace parlab::grader::batch
