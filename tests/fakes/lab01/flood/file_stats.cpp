// Fake submission (tests/fakes/lab01/flood): writes to stdout forever on purpose; the
// grader must cap what it keeps and kill the process past its output limit.
#include <cstdio>
#include <string>
#include <vector>

#include "api.hpp"

namespace lab01 {

FileStats compute_file_stats(const std::string& path) {
  for (;;) std::printf("debug: still looking at %s\n", path.c_str());
  FileStats stats;
  stats.file = path;
  return stats;
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
