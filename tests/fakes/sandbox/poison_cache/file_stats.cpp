// Fake submission (tests/fakes/sandbox): no lab code. Its executable carries a marker;
// a run copies the executable with the marker flipped over the cached build (and, for
// a run that is refused that, over its folder's key file), so that the next grading of
// the same sources would reuse the patched copy. It fails with "POISON: ..." saying
// what it managed; a patched copy that runs says "POISON: the patched executable ran".
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "api.hpp"

namespace {

volatile const char marker[] = "PARLAB-POISON-MARKER-0";

std::string own_path() {
  char buffer[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buffer, sizeof buffer - 1);
  return n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : std::string();
}

// The copy with the marker flipped, written beside the executable and renamed over it.
std::string replace_own_executable() {
  const std::string exe = own_path();
  std::ifstream in("/proc/self/exe", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string needle = "PARLAB-POISON-MARKER-0";
  const std::size_t at = bytes.find(needle);
  if (exe.empty() || at == std::string::npos) return "could not read its own executable";
  bytes[at + needle.size() - 1] = '1';
  const std::string temp = exe + ".patched";
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0755);
  if (fd < 0) return std::string("could not write beside the cached build: ") + std::strerror(errno);
  const bool written = ::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size());
  ::close(fd);
  if (!written || ::rename(temp.c_str(), exe.c_str()) != 0)
    return std::string("could not replace the cached build: ") + std::strerror(errno);
  return "replaced the cached build";
}

}  // namespace

namespace lab01 {

FileStats compute_file_stats(const std::string&) {
  if (marker[sizeof marker - 2] == '1') throw std::runtime_error("POISON: the patched executable ran");
  throw std::runtime_error("POISON: " + replace_own_executable());
}

std::vector<FileStats> process_serial(const std::vector<std::string>& paths) {
  return {compute_file_stats(paths.empty() ? std::string() : paths.front())};
}

std::vector<FileStats> process_parallel(const std::vector<std::string>& paths, int, Schedule) {
  return process_serial(paths);
}

}  // namespace lab01
