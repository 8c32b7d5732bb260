#pragma once
// Finding a tool the grader itself runs (sbatch, addr2line) on the grader's PATH.
#include <filesystem>
#include <optional>
#include <string>

namespace parlab::grader {

// The first executable regular file `name` in PATH's absolute folders (/usr/bin:/bin
// without PATH); a `name` with a slash is taken as given. Nothing when none is found.
std::optional<std::filesystem::path> program_on_path(const std::string& name);

}  // namespace parlab::grader
