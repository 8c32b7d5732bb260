// Fake submission (tests/fakes/lab01/hold_procs): forks until fork() fails (the
// process limit) and keeps every process alive for 3 s, then fails. A concurrent
// grading of someone else must not notice (e2e sandbox_isolation).
#include <unistd.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "api.hpp"

namespace lab01 {

FileStats compute_file_stats(const std::string&) {
  int forked = 0;
  while (forked < 100000) {
    pid_t pid = ::fork();
    if (pid < 0) break;
    if (pid == 0) {
      ::sleep(8);
      _exit(0);
    }
    ++forked;
  }
  ::sleep(3);
  throw std::runtime_error("held " + std::to_string(forked) + " processes");
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
