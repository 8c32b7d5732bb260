// Fake submission (tests/fakes/lab01/alloc): allocates and touches memory without
// bound on purpose until std::bad_alloc escapes; the grader must report out of memory.
#include <memory>
#include <string>
#include <vector>

#include "api.hpp"

namespace lab01 {

FileStats compute_file_stats(const std::string& path) {
  std::vector<std::unique_ptr<char[]>> hoard;
  for (;;) {
    constexpr std::size_t kBlock = 64 << 20;
    hoard.emplace_back(new char[kBlock]);
    // Touch one byte per MiB: the block is really mapped, yet reaching the address
    // space limit stays fast (touching every page of 2 GiB takes seconds in a VM).
    for (std::size_t i = 0; i < kBlock; i += 1 << 20) hoard.back()[i] = 1;
  }
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
