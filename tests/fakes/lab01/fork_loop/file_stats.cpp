// Fake submission (tests/fakes/lab01/fork_loop): the classic fork loop without
// _exit(): every worker goes on forking too, until fork() fails with EAGAIN (the
// process limit). The failure is the student's own: graded, never retried as the
// grader's trouble (e2e batch_uid_pool).
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "api.hpp"

namespace lab01 {

FileStats compute_file_stats(const std::string&) { return FileStats{}; }

std::vector<FileStats> process_serial(const std::vector<std::string>& paths) {
  std::vector<FileStats> results;
  for (const std::string& path : paths) results.push_back(compute_file_stats(path));
  return results;
}

std::vector<FileStats> process_parallel(const std::vector<std::string>& paths, int workers, Schedule) {
  for (int round = 0; round < 64; ++round) {
    for (int w = 0; w < workers; ++w) {
      const pid_t pid = ::fork();
      if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
      // The bug: the child does not _exit(), so it forks on as well.
    }
  }
  while (::wait(nullptr) > 0) {
  }
  return process_serial(paths);
}

}  // namespace lab01
