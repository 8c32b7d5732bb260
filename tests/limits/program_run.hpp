#pragma once
// Runs a lab program (a reference, the expected-output program) the way the grader
// does, without the grader's sandbox: the checks in tests/limits and tests/tolerance
// need the real programs' outputs, not a grading.
#include <filesystem>
#include <string>
#include <vector>

namespace parlab::limits {

// Runs `exe args...` with stdout and stderr into `log`; the exit status, 128 + signal
// when killed, or -1 when it could not start.
int run_program(const std::filesystem::path& exe, const std::vector<std::string>& args,
                const std::filesystem::path& log);

// The last 2000 characters of a log, to quote in a failure.
std::string log_tail(const std::filesystem::path& file);

}  // namespace parlab::limits
