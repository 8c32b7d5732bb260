#pragma once
// Report files named on the command line are checked before a grading starts, so a
// typo in --json costs a second, not a whole grading and an "internal" error.
#include <filesystem>
#include <string>

namespace parlab::grader {

// UsageError (exit 2) when the folder does not exist or the path is a folder;
// EnvironmentError (exit 3) when the folder cannot be written.
void require_writable_output(const std::filesystem::path& file, const std::string& option);

// Writes a report file; a failure is an EnvironmentError naming the file (exit 3).
void write_report_file(const std::filesystem::path& file, const std::string& text);

}  // namespace parlab::grader
