// Fake submission (tests/fakes/sandbox): no lab code. Each run leaves litter that
// outlives it where nothing cleans up: 100 MB in /dev/shm and 100 MB in /tmp (files
// named parlab-litter-*), a System V shared memory segment, and a daemon in a session
// of its own that sleeps for an hour (sleep 3599.271). Then it fails.
#include <sys/ipc.h>
#include <sys/shm.h>
#include <unistd.h>

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "api.hpp"

namespace lab01 {
namespace {

void leave_file(const std::string& folder) {
  std::ofstream out(folder + "/parlab-litter-" + std::to_string(::getpid()), std::ios::binary);
  const std::string megabyte(1 << 20, 'x');
  for (int i = 0; i < 100 && out; ++i) out << megabyte;
}

void leave_daemon() {
  if (::fork() != 0) return;
  ::setsid();
  if (::fork() != 0) ::_exit(0);
  char* argv[] = {const_cast<char*>("/bin/sleep"), const_cast<char*>("3599.271"), nullptr};
  ::execv("/bin/sleep", argv);
  ::_exit(0);
}

}  // namespace

FileStats compute_file_stats(const std::string&) {
  static bool left = false;
  if (!left) {
    left = true;
    leave_file("/dev/shm");
    leave_file("/tmp");
    ::shmget(IPC_PRIVATE, 1 << 20, IPC_CREAT | 0600);
    leave_daemon();
  }
  throw std::runtime_error("LITTER: left files, a segment and a daemon");
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
