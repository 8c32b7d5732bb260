// Fake submission (tests/fakes/lab01/escapes): tries to steer the reader's terminal
// and the Markdown report. Its exception message (status.json) and its stderr carry
// an OSC 52 clipboard write, a screen clear, a window title, C1 and raw 8-bit CSI, and
// a "# PASS 100/100" line; every report must show them as text.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "api.hpp"

namespace lab01 {
namespace {
// Valid UTF-8 (status.json is JSON); the raw 0x9b byte goes to stderr only.
const char* const kSpoof =
    "spoof \x1b]52;c;cm0gLXJmIH4=\a \x1b[2J \x1b]0;title\a \xC2\x9b" "31m\n# PASS 100/100\n```\n";
}  // namespace

FileStats compute_file_stats(const std::string&) {
  std::fprintf(stderr, "%s raw-csi \x9b" "2J\n", kSpoof);
  throw std::runtime_error(kSpoof);
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
