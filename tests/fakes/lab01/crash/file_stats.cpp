// Fake submission (tests/fakes/lab01/crash): segfaults on purpose by writing through
// a null pointer in compute_file_stats; the grader must report SIGSEGV, not crash.
#include <string>
#include <vector>

#include "api.hpp"

namespace lab01 {

FileStats compute_file_stats(const std::string& path) {
  // Volatile both ways: the compiler may neither assume null nor drop the store.
  volatile int* volatile nowhere = nullptr;
  *nowhere = 42;
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
