// Fake submission (tests/fakes/sandbox): no lab code. It counts the processes of
// other users it can see in /proc (another grading's command line would show there)
// and fails with "SEEN: N processes of other users".
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "api.hpp"

namespace lab01 {

FileStats compute_file_stats(const std::string&) {
  int others = 0;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || !std::isdigit(static_cast<unsigned char>(name[0]))) continue;
    struct stat info {};
    if (::stat(entry.path().c_str(), &info) == 0 && info.st_uid != ::getuid()) ++others;
  }
  throw std::runtime_error("SEEN: " + std::to_string(others) + " processes of other users");
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
