#include "util/program_on_path.hpp"

#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <system_error>

namespace fs = std::filesystem;

namespace parlab::grader {

std::optional<fs::path> program_on_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return fs::path(name);
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty() || dir[0] != '/') continue;  // a relative folder depends on the cwd
    const fs::path candidate = fs::path(dir) / name;
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  return std::nullopt;
}

}  // namespace parlab::grader
