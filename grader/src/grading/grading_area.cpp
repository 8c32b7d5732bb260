#include "grading/grading_area.hpp"

#include <sys/mount.h>

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <random>

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

std::string host_tag() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "host";
  std::string out;
  for (char c : std::string(name)) out += (std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  return out.empty() ? "host" : out.substr(0, 64);
}

}  // namespace

std::string grading_folder_name() {
  std::random_device entropy;
  char buf[64];
  std::snprintf(buf, sizeof buf, "-%ld-%08x", static_cast<long>(::getpid()), entropy());
  return "g-" + host_tag() + buf;
}

void remove_abandoned_gradings(const fs::path& gradings_dir, const fs::path& keep) {
  const std::string prefix = "g-" + host_tag() + "-";
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(gradings_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.path() == keep || name.rfind(prefix, 0) != 0) continue;
    const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
    // Only folders of this host whose process is certainly gone: another host's
    // grading may share the folder (a network file system), a live one is working.
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
      std::error_code ignored;
      // Its disk-quota tmpfs (process/run_area.hpp) is still mounted after a crash.
      ::umount2((entry.path() / "runs").c_str(), MNT_DETACH);
      fs::remove_all(entry.path(), ignored);
    }
  }
}

}  // namespace parlab::grader
