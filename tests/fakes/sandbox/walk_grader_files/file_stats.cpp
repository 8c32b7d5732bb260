// Fake submission (tests/fakes/sandbox): no lab code. It walks every folder it can
// enter from / (links not followed; /proc, /sys and /dev left out) and tries to open
// every file of the grader's trees (@GRADER_ROOTS@, the source and build folders and
// any git folder of theirs) that is not one of the paths a submission needs
// (@ALLOWED@: the lab folders, public headers, linked libraries, work roots). It fails
// with "WALK: N grader files readable (first: ...), M entries walked".
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "api.hpp"

namespace {

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> parts;
  std::string::size_type start = 0;
  while (start <= list.size()) {
    std::string::size_type end = list.find(';', start);
    if (end == std::string::npos) end = list.size();
    if (end > start) parts.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

bool within(const std::string& path, const std::string& folder) {
  return path == folder || (path.size() > folder.size() && path.compare(0, folder.size(), folder) == 0 &&
                            path[folder.size()] == '/');
}

struct Walk {
  std::vector<std::string> roots = split("@GRADER_ROOTS@");
  std::vector<std::string> allowed = split("@ALLOWED@");
  long entries = 0;
  long readable = 0;
  std::string first;

  bool graders(const std::string& path) const {
    for (const std::string& a : allowed)
      if (within(path, a)) return false;
    for (const std::string& r : roots)
      if (within(path, r)) return true;
    return false;
  }

  void file(const std::string& path) {
    if (!graders(path)) return;
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return;
    ::close(fd);
    if (readable++ < 3) first += (first.empty() ? "" : ", ") + path;
  }

  void folder(const std::string& path, int depth) {
    if (depth > 40 || entries > 5000000) return;
    DIR* dir = ::opendir(path.c_str());
    if (!dir) return;
    while (dirent* e = ::readdir(dir)) {
      const std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      const std::string child = (path == "/" ? "" : path) + "/" + name;
      if (child == "/proc" || child == "/sys" || child == "/dev") continue;
      ++entries;
      struct stat info {};
      if (::lstat(child.c_str(), &info) != 0) continue;
      if (S_ISDIR(info.st_mode)) folder(child, depth + 1);
      else if (S_ISREG(info.st_mode)) file(child);
    }
    ::closedir(dir);
  }
};

}  // namespace

namespace lab01 {

FileStats compute_file_stats(const std::string&) {
  Walk walk;
  walk.folder("/", 0);
  throw std::runtime_error("WALK: " + std::to_string(walk.readable) + " grader files readable (first: " +
                           walk.first + "), " + std::to_string(walk.entries) + " entries walked");
}

std::vector<FileStats> process_serial(const std::vector<std::string>& paths) {
  return {compute_file_stats(paths.empty() ? std::string() : paths.front())};
}

std::vector<FileStats> process_parallel(const std::vector<std::string>& paths, int, Schedule) {
  return process_serial(paths);
}

}  // namespace lab01
