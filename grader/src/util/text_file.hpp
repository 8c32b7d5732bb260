#pragma once
// A whole file the grader itself wrote (a result, a status record) read back as text.
// Not for what a child writes: that goes through grading/child_run_files (no links,
// no FIFOs, capped).
#include <filesystem>
#include <string>

namespace parlab::grader {

// Throws std::runtime_error naming the file when it cannot be opened or read.
std::string read_text_file(const std::filesystem::path& file);

}  // namespace parlab::grader
