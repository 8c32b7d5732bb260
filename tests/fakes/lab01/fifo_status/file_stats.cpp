// Fake submission (tests/fakes/lab01/fifo_status): replaces its own status.json with a
// FIFO and exits with an error. A grader that opens it plainly blocks forever (while
// holding the machine's lock); it must report the failure and move on.
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "api.hpp"

namespace {
std::string out_dir() {
  std::ifstream cmdline("/proc/self/cmdline");
  std::string arg;
  bool next = false;
  while (std::getline(cmdline, arg, '\0')) {
    if (next) return arg;
    next = arg == "--out";
  }
  return "";
}
}  // namespace

namespace lab01 {

FileStats compute_file_stats(const std::string& path) {
  const std::string status = out_dir() + "/status.json";
  ::unlink(status.c_str());
  ::mkfifo(status.c_str(), 0666);
  ::_exit(3);
  return FileStats{path};
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
