#include "process/request_checks.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

namespace parlab::grader::process {
namespace {

namespace fs = std::filesystem;

bool has_nul(const std::string& text) { return text.find('\0') != std::string::npos; }

// What execve() runs: an ELF binary or a "#!" script. Checked up front because
// under bubblewrap an exec failure would only show as the sandbox's exit status.
// A file we may execute but not read (mode --x) is given the benefit of the doubt.
bool looks_runnable(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return true;
  char magic[4] = {};
  file.read(magic, sizeof magic);
  if (file.gcount() >= 4 && std::memcmp(magic,
                                        "\x7f"
                                        "ELF",
                                        4) == 0)
    return true;
  return file.gcount() >= 2 && magic[0] == '#' && magic[1] == '!';
}

}  // namespace

void check_request_is_well_formed(const RunRequest& request) {
  if (!(request.limits.wall_seconds > 0))
    throw std::invalid_argument("run request: wall_seconds must be positive");
  if (request.work_dir.empty()) throw std::invalid_argument("run request: work_dir is empty");
  for (const auto& [name, value] : request.env) {
    if (name.empty() || name.find('=') != std::string::npos || has_nul(name))
      throw std::invalid_argument("run request: invalid environment variable name '" + name + "'");
    if (has_nul(value))
      throw std::invalid_argument("run request: environment variable " + name + " holds a NUL");
  }
}

ExecutablePath find_executable(const fs::path& executable) {
  std::error_code error;
  fs::path resolved = fs::canonical(executable, error);
  if (error) throw std::runtime_error("executable not found: " + executable.string());
  struct stat info {};
  if (::stat(resolved.c_str(), &info) != 0 || !S_ISREG(info.st_mode))
    throw std::runtime_error("executable is not a regular file: " + executable.string());
  if ((info.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH)) == 0 || ::access(resolved.c_str(), X_OK) != 0)
    throw std::runtime_error("executable has no execute permission: " + executable.string());
  if (!looks_runnable(resolved))
    throw std::runtime_error("not a program (neither ELF nor a #! script): " + executable.string());
  return ExecutablePath{fs::absolute(executable).lexically_normal(), resolved};
}

std::vector<fs::path> resolve_view_paths(const std::vector<fs::path>& paths) {
  std::vector<fs::path> resolved;
  for (const fs::path& path : paths) {
    std::error_code error;
    fs::path canonical = fs::canonical(path, error);
    if (error) throw std::runtime_error("sandbox view path does not exist: " + path.string());
    resolved.push_back(canonical);
  }
  return resolved;
}

}  // namespace parlab::grader::process
