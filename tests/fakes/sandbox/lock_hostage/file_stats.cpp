// Fake submission (tests/fakes/sandbox): no lab code. Each run tries to hold the
// machine's measurement lock hostage: open and flock the gate and lock files of a
// root grader's lock folder (@LOCK_DIR@, put in by the e2e test: /run/parlab/locks
// unless PARLAB_LOCK_DIR says otherwise) and write a fake holder line there
// ("pid 1 ... measuring"). It says "HOSTAGE: gate taken" or "HOSTAGE: gate refused",
// "HOSTAGE: holder written" or "HOSTAGE: holder refused", and fails. A taken gate
// is held for 20 s by a daemon, past the run.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "api.hpp"

namespace lab01 {
namespace {

const std::string kLocks = "@LOCK_DIR@";

bool take_gate() {
  bool taken = false;
  for (const char* name : {"/machine.gate", "/machine.lock"}) {
    const int fd = ::open((kLocks + name).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || ::flock(fd, LOCK_EX | LOCK_NB) != 0) continue;
    taken = true;
    if (::fork() == 0) {  // the lock is the open file's: a daemon keeps it
      ::setsid();
      ::sleep(20);
      ::_exit(0);
    }
    ::close(fd);
  }
  return taken;
}

bool write_holder() {
  const int fd = ::open((kLocks + "/holders/1").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  const std::string line = "1700000000\tmeasuring\tgrade lab01 exam-solutions";
  const bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  ::close(fd);
  return written;
}

}  // namespace

FileStats compute_file_stats(const std::string&) {
  const std::string gate = take_gate() ? "HOSTAGE: gate taken" : "HOSTAGE: gate refused";
  const std::string holder = write_holder() ? "HOSTAGE: holder written" : "HOSTAGE: holder refused";
  throw std::runtime_error(gate + "; " + holder);
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
