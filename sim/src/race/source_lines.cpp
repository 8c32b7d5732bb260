#include "race/source_lines.hpp"

#include <dlfcn.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <mutex>
#include <sstream>

#include "parlab_sim/source_names.hpp"

extern char** environ;

namespace parlab_sim::detail {
namespace {

bool is_library_file(const std::string& file) {
  return file.find("/parlab_sim/") != std::string::npos ||
         file.find("/include/c++/") != std::string::npos || file.find("/bits/") != std::string::npos ||
         file.find("/cuda_compat/") != std::string::npos;
}

// Runs addr2line -i on `object` at `offset`; the innermost frame in the student's code.
std::string ask_addr2line(const std::string& object, std::uintptr_t offset) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  char address[32];
  std::snprintf(address, sizeof address, "0x%lx", static_cast<unsigned long>(offset));
  std::string object_arg = object;
  char* argv[] = {const_cast<char*>("addr2line"), const_cast<char*>("-i"), const_cast<char*>("-e"),
                  object_arg.data(), address, nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", 1, 0);
  pid_t child = 0;
  const int spawned = posix_spawnp(&child, "addr2line", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  std::string output;
  if (spawned == 0) {
    char buffer[512];
    ssize_t n = 0;
    while ((n = read(fds[0], buffer, sizeof buffer)) > 0 && output.size() < 8192) {
      output.append(buffer, static_cast<std::size_t>(n));
    }
    int status = 0;
    waitpid(child, &status, 0);
  }
  close(fds[0]);
  std::istringstream lines(output);
  std::string line;
  std::string fallback;
  while (std::getline(lines, line)) {
    if (const std::size_t paren = line.find(" ("); paren != std::string::npos) line.resize(paren);
    if (line.empty() || line[0] == '?') continue;
    const std::size_t colon = line.rfind(':');
    if (colon == std::string::npos || line.compare(colon, 2, ":0") == 0) continue;
    if (fallback.empty()) fallback = line;
    if (!is_library_file(line.substr(0, colon))) return line;
  }
  return fallback;
}

}  // namespace

std::string source_line_of(const void* code_address) {
  static std::mutex mutex;
  static std::map<const void*, std::string> known;
  std::lock_guard lock(mutex);
  if (auto it = known.find(code_address); it != known.end()) return it->second;
  std::string where;
  Dl_info info{};
  if (dladdr(code_address, &info) != 0 && info.dli_fbase != nullptr) {
    // The return address is just past the call: step back into the access's line.
    const auto offset = reinterpret_cast<std::uintptr_t>(code_address) - 1 -
                        reinterpret_cast<std::uintptr_t>(info.dli_fbase);
    std::string object = info.dli_fname != nullptr ? info.dli_fname : "";
    Dl_info mine{};  // this library is linked into the executable itself
    if (dladdr(reinterpret_cast<const void*>(&source_line_of), &mine) != 0 &&
        mine.dli_fbase == info.dli_fbase) {
      char self[4096];  // our own path: "/proc/self/exe" would be addr2line's
      const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
      if (n > 0) object.assign(self, static_cast<std::size_t>(n));
    }
    where = ask_addr2line(object, offset);
  }
  if (where.empty()) {
    where = "an unknown line";
  } else {
    const std::size_t colon = where.rfind(':');
    where = std::string(source_display_name(where.substr(0, colon).c_str())) + where.substr(colon);
  }
  known[code_address] = where;
  return where;
}

}  // namespace parlab_sim::detail
