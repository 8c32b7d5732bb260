// Fake submission (tests/fakes/sandbox): a worker hoards memory in memfd files until
// the run's memory cgroup kills it, while the parent reads the worker's pipe, whose
// write end it forgot to close: after the kill it blocks on a pipe nobody writes.
// The verdict must be the memory limit, not the deadlock the grader then stops.
#include <sys/mman.h>
#include <unistd.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "api.hpp"

namespace lab01 {

FileStats compute_file_stats(const std::string&) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) throw std::runtime_error("pipe failed");
  if (::fork() == 0) {
    std::vector<char> mib(1 << 20, 'm');
    for (int file = 0; file < 4096; ++file) {
      int fd = ::memfd_create("hoard", 0);
      for (int i = 0; fd >= 0 && i < 64; ++i)
        if (::write(fd, mib.data(), mib.size()) < 0) break;
    }
    ::_exit(0);
  }
  char byte;
  // pipe_fds[1] is still open here: this read never sees end-of-file.
  if (::read(pipe_fds[0], &byte, 1) != 1) throw std::runtime_error("the worker sent nothing");
  throw std::runtime_error("unreachable");
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
