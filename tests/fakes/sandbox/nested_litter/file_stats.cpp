// Fake submission (tests/fakes/sandbox): no lab code. Each run looks for answers an
// earlier run left nested in shared folders: in a folder another user made
// world-writable below /tmp (@NEST_DIR@, made by the e2e test) and in /run/lock
// (1777 on Debian). It says "NESTED: found" or "NESTED: empty", leaves its own files
// there (parlab-nested-*), and fails.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "api.hpp"

namespace lab01 {
namespace {

namespace fs = std::filesystem;

bool found_in(const fs::path& folder) {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(folder, error))
    if (entry.path().filename().string().rfind("parlab-nested-", 0) == 0) return true;
  return false;
}

void leave_in(const fs::path& folder) {
  std::ofstream(folder / ("parlab-nested-" + std::to_string(::getpid()))) << "42 17 3\n";
}

}  // namespace

FileStats compute_file_stats(const std::string&) {
  const fs::path nest = "@NEST_DIR@", lock = "/run/lock";
  const bool found = found_in(nest) || found_in(lock);
  leave_in(nest);
  leave_in(lock);
  throw std::runtime_error(found ? "NESTED: found" : "NESTED: empty");
}

std::vector<FileStats> process_serial(const std::vector<std::string>& paths) {
  std::vector<FileStats> results;
  for (const std::string& path : paths) results.push_back(compute_file_stats(path));
  return results;
}

std::vector<FileStats> process_parallel(const std::vector<std::string>& paths, int, Schedule) {
  return process_serial(paths);
}

}  // namespace lab01
