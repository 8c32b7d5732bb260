// Fake submission (tests/fakes/lab01/loop): never returns from compute_file_stats on
// purpose (an endless loop); the grader must stop it at its wall-time limit.
#include <string>
#include <vector>

#include "api.hpp"

namespace lab01 {

FileStats compute_file_stats(const std::string& path) {
  // A volatile counter: a side-effect-free endless loop is undefined behaviour.
  volatile unsigned long spins = 0;
  for (;;) spins = spins + 1;
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
