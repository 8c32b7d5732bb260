// Fake submission (tests/fakes/lab01/linked_out): computes nothing, replaces its own
// output folder with a symbolic link (to /etc: the target is a string the grader
// would resolve outside the sandbox, so it could name any folder, a classmate's run
// included) and exits 0. The grader must not read through the link.
#include <unistd.h>

#include <filesystem>
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

FileStats compute_file_stats(const std::string& path) { return FileStats{path}; }

std::vector<FileStats> process_serial(const std::vector<std::string>&) {
  const std::string out = out_dir();
  std::error_code ignored;
  std::filesystem::remove_all(out, ignored);
  std::filesystem::create_symlink("/etc", out, ignored);
  ::_exit(0);
}

std::vector<FileStats> process_parallel(const std::vector<std::string>& paths, int, Schedule) {
  return process_serial(paths);
}

}  // namespace lab01
