#pragma once
// Checks of a RunRequest before anything is started, so a grader mistake is a
// clear exception naming the path instead of a confusing student outcome.
#include <filesystem>
#include <vector>

#include "process/process_runner.hpp"

namespace parlab::grader::process {

// Throws std::invalid_argument: wall_seconds not positive, an environment
// variable name that is empty or holds '=' or NUL, a value holding NUL.
void check_request_is_well_formed(const RunRequest& request);

struct ExecutablePath {
  // As given, made absolute (relative to the grader's cwd): what is executed and
  // what argv[0] says. Not resolved, because multi-call programs read their own
  // name (clang++ is a symlink to clang; only the name makes it link libstdc++).
  std::filesystem::path invoked;
  std::filesystem::path resolved;  // symlinks followed: the file itself
};

// Throws std::runtime_error naming the path when the executable is missing, not
// a regular file, not executable, or neither ELF nor a #! script.
ExecutablePath find_executable(const std::filesystem::path& executable);

// Throws std::runtime_error naming the first path that does not exist. Returns
// the canonical paths.
std::vector<std::filesystem::path> resolve_view_paths(
    const std::vector<std::filesystem::path>& paths);

}  // namespace parlab::grader::process
