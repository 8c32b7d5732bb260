// Fake submission (tests/fakes/lab01/memfd): hoards memory in memfd files written
// with write(), 64 MiB per file: no mapping (RLIMIT_AS does not see it) and each
// file below the file size limit. Only the run's memory cgroup stops it.
#include <sys/mman.h>
#include <unistd.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "api.hpp"

namespace lab01 {

FileStats compute_file_stats(const std::string&) {
  std::vector<char> mib(1 << 20, 'm');
  for (int file = 0; file < 4096; ++file) {
    int fd = ::memfd_create("hoard", 0);
    if (fd < 0) throw std::runtime_error("memfd_create failed");
    for (int i = 0; i < 64; ++i) {
      if (::write(fd, mib.data(), mib.size()) != static_cast<ssize_t>(mib.size()))
        throw std::runtime_error("memfd write failed");
    }
  }
  throw std::runtime_error("hoarded 256 GiB and nothing stopped it");
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
