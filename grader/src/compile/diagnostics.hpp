#pragma once
// Turns compiler output into diagnostics that point at the student's own files:
// paths inside the staging copy are mapped back to the submission folder.
#include <filesystem>
#include <string>
#include <vector>

#include "result/result.hpp"

namespace parlab::grader {

std::vector<Diagnostic> parse_gcc_diagnostics(const std::string& log,
                                              const std::filesystem::path& staged_dir,
                                              const std::filesystem::path& submission_dir);

// Replaces every occurrence of the staging path in the log with the submission path.
std::string map_paths(std::string log, const std::filesystem::path& staged_dir,
                      const std::filesystem::path& submission_dir);

}  // namespace parlab::grader
