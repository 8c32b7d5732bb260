#pragma once
// Rich sample results shared by the report tests: one test of every kind a student
// can meet, so each reporter's golden file shows every path it has.
#include "result/result.hpp"

namespace parlab::grader::testing {

// Values only the hidden test holds; no rendered report except JSON may contain them.
inline constexpr const char* kHiddenLabel = "secret_input_017.csv";
inline constexpr const char* kHiddenExpected = "7391.25";
inline constexpr const char* kHiddenGot = "7391.5";
inline constexpr const char* kHiddenStderr = "HIDDEN-STDERR-MARKER";
inline constexpr const char* kHiddenDataset = "sensor_logs(files=200, seed=99887766)";

// Built, graded: passed, partial performance, failed with a mismatch, hidden failed,
// crashed with a stderr tail, skipped, inconclusive.
GradeResult sample_grade_result();

// The build failed: diagnostics, a capped log, and every test not run.
GradeResult sample_build_failed_result();

}  // namespace parlab::grader::testing
