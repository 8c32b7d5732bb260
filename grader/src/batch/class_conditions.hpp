#pragma once
// Two parts of the class summary an instructor reads before the scores: where and how
// the class was graded (simulator or GPU, and which tests could not be graded there),
// and who crashed, timed out or exited wrongly in a test (graded rows whose points may
// hide a run that went wrong, not only the rows that did not build).
#include <nlohmann/json.hpp>
#include <vector>

#include "batch/student_record.hpp"

namespace parlab::grader::batch {

// {"devices": ["simulator, on the CPU (...)"], "modes": ["sim"],
//  "not_graded_tests": [{"name", "points", "students", "reason"}]}
nlohmann::json graded_where(const std::vector<StudentRecord>& records);

// [{"id", "name", "reason": "crashed (killed by a signal) in 'heat, small'; ..."}]
nlohmann::json run_problems(const std::vector<StudentRecord>& records);

// "Graded on: simulator, on the CPU (...). Not graded there: 'x' (3 points, 30
// students): need a GPU." One paragraph for the Markdown page.
std::string graded_where_markdown(const nlohmann::json& where);

}  // namespace parlab::grader::batch
