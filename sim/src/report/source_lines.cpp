#include "report/source_lines.hpp"

#include <dlfcn.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <mutex>
#include <sstream>
#include <string_view>

#include "config/locked_state.hpp"
#include "report/code_places.hpp"
#include "parlab_sim/source_names.hpp"

extern char** environ;

namespace parlab_sim::detail {

bool is_library_file(const std::string& file) {
  return file.find("/parlab_sim/") != std::string::npos ||
         file.find("/include/c++/") != std::string::npos || file.find("/bits/") != std::string::npos ||
         file.find("/cuda_compat/") != std::string::npos;
}

namespace {

bool starts_threads(const std::string& function) {
  return function.find("parlab_sim::detail::LaunchState<") != std::string::npos &&
         function.find("::run_thread") != std::string::npos;
}

// "operator()<...>" of the launch lambda, inlined: called from run_thread or from the
// std::invoke run_thread uses, whose template arguments name the lambda's type
// ("<lambda(auto:21&& ...)>"). A student's functor is called from a kernel instead.
bool is_inlined_launch_lambda(const std::vector<AddressFrame>& frames, std::size_t k) {
  if (frames[k].function.rfind("operator()", 0) != 0 || k + 1 >= frames.size()) return false;
  const std::string& caller = frames[k + 1].function;
  const std::size_t type = caller.find("<lambda(auto:");
  return starts_threads(caller) ||
         (type != std::string::npos && caller.find("&& ...)>", type) != std::string::npos &&
          caller.find("__invoke") != std::string::npos);
}

}  // namespace

std::string launch_lambda_place(const std::vector<AddressFrame>& frames) {
  for (std::size_t k = 0; k < frames.size(); ++k) {
    if (is_inlined_launch_lambda(frames, k)) return frames[k].place;
  }
  return {};
}

bool is_launch_thunk(const std::vector<AddressFrame>& frames,
                     const std::set<std::string>& launch_places) {
  if (frames.empty()) return false;
  const AddressFrame& innermost = frames.front();
  // The lambda not inlined: its own name, "main::{lambda((auto:1&&)...)#2}::operator()<...>".
  const std::size_t lambda = innermost.function.find("{lambda((auto:");
  if (lambda != std::string::npos && innermost.function.find("&&)...)#", lambda) != std::string::npos &&
      innermost.function.find("}::operator()", lambda) != std::string::npos) {
    return true;
  }
  if (is_inlined_launch_lambda(frames, 0)) return true;
  // The simulator's thread start at a launch line: code of the lambda (a kernel's exits)
  // that g++ merged into it. At a kernel's line it is the kernel's own code.
  return starts_threads(innermost.function) && !innermost.place.empty() &&
         launch_places.count(innermost.place) != 0;
}

namespace {

// Runs addr2line with `arguments` after "-e object"; its standard output.
std::string run_addr2line(const std::string& object, const std::vector<std::string>& arguments,
                          std::size_t output_cap) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  std::string object_arg = object;
  std::vector<std::string> owned = arguments;
  std::vector<char*> argv = {const_cast<char*>("addr2line"), const_cast<char*>("-e"),
                             object_arg.data()};
  for (std::string& a : owned) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  if (posix_spawn_file_actions_init(&actions) != 0) {
    close(fds[0]);
    close(fds[1]);
    return {};
  }
  // A helper whose output would not reach the pipe is not started: no line, not a wrong one.
  const bool wired = posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO) == 0 &&
                     posix_spawn_file_actions_addclose(&actions, fds[0]) == 0 &&
                     posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", 1, 0) == 0;
  pid_t child = 0;
  // The path found at start-up, this very buffer: a locked runtime may exec nothing else
  // (config/runtime_lock).
  const char* helper = g_locked.helper_path;
  int spawned = -1;
  if (wired) {
    spawned = helper[0] != '\0' ? posix_spawn(&child, helper, &actions, nullptr, argv.data(), environ)
                                : posix_spawnp(&child, "addr2line", &actions, nullptr, argv.data(), environ);
  }
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  std::string output;
  if (spawned == 0) {
    char buffer[4096];
    ssize_t n = 0;
    while ((n = read(fds[0], buffer, sizeof buffer)) > 0) {
      if (output.size() < output_cap) output.append(buffer, static_cast<std::size_t>(n));
    }
    int status = 0;
    waitpid(child, &status, 0);
  }
  close(fds[0]);
  return output;
}

// One frame line of addr2line's output, "file:line" without " (discriminator n)"; empty
// when it names no line. A frame in the rewritten file itself (`lab.cu.cpp`, whose
// `#line 1 "lab.cu"` maps every line of the student's) is g++'s line information gone
// astray: code of a force-included header (an atomic's std::atomic_ref load) is
// sometimes attributed to it, at a line the file does not have; it names nothing.
std::string frame_of(std::string line) {
  if (const std::size_t paren = line.find(" ("); paren != std::string::npos) line.resize(paren);
  if (line.empty() || line[0] == '?') return {};
  const std::size_t colon = line.rfind(':');
  if (colon == std::string::npos || line.compare(colon, 2, ":0") == 0 ||
      line.compare(colon, 2, ":?") == 0) {
    return {};
  }
  constexpr std::string_view kRewritten = ".cu.cpp";
  if (colon >= kRewritten.size() &&
      line.compare(colon - kRewritten.size(), kRewritten.size(), kRewritten) == 0) {
    return {};
  }
  return line;
}

// From the frames of one address (innermost first): where it is, its line as addr2line
// named it (empty: none).
CodeLocation location_of(const std::vector<std::string>& frames, bool in_launch_thunk = false) {
  CodeLocation location;
  location.launch_thunk = in_launch_thunk;
  std::string fallback;
  for (const std::string& frame : frames) {
    const std::string file = frame.substr(0, frame.rfind(':'));
    if (fallback.empty()) {
      fallback = frame;
      location.library = is_library_file(file);
    }
    if (!is_library_file(file)) {
      location.line = frame;
      break;
    }
  }
  if (location.line.empty()) location.line = fallback;
  return location;
}

// As a report names it: the file as the student knows it, or "an unknown line".
CodeLocation displayed(CodeLocation location) {
  if (location.line.empty()) {
    location.line = "an unknown line";
    return location;
  }
  const std::size_t colon = location.line.rfind(':');
  if (colon == std::string::npos) return location;
  location.line = std::string(source_display_name(location.line.substr(0, colon).c_str())) +
                  location.line.substr(colon);
  return location;
}

// The object holding `code_address` and the offset in it of the instruction before it
// (a return address is just past the call: step back into the call's line).
// `in_executable`: the object is the executable (this library is linked into it), whose
// code places the run may have been given (report/code_places).
bool object_and_offset(const void* code_address, std::string& object, std::uintptr_t& offset,
                       bool& in_executable) {
  Dl_info info{};
  if (dladdr(code_address, &info) == 0 || info.dli_fbase == nullptr) return false;
  offset = reinterpret_cast<std::uintptr_t>(code_address) - 1 -
           reinterpret_cast<std::uintptr_t>(info.dli_fbase);
  object = info.dli_fname != nullptr ? info.dli_fname : "";
  Dl_info mine{};
  in_executable = dladdr(reinterpret_cast<const void*>(&object_and_offset), &mine) != 0 &&
                  mine.dli_fbase == info.dli_fbase;
  if (in_executable) {
    char self[4096];  // our own path: "/proc/self/exe" would be addr2line's
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) object.assign(self, static_cast<std::size_t>(n));
  }
  return true;
}

std::string hex(std::uintptr_t value) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%lx", static_cast<unsigned long>(value));
  return text;
}

std::mutex g_mutex;
std::map<const void*, CodeLocation> g_known;

}  // namespace

std::map<std::uintptr_t, CodeLocation> locate_in_object(const std::string& object,
                                                        const std::vector<std::uintptr_t>& offsets) {
  // -a prints each address before its frames, so the frames can be told apart; -f -C
  // each frame's function (demangled) on the line before its place.
  std::vector<std::string> arguments = {"-a", "-i", "-f", "-C"};
  for (const std::uintptr_t offset : offsets) arguments.push_back(hex(offset));
  std::istringstream lines(run_addr2line(object, arguments, std::size_t{16} << 20));
  std::map<std::uintptr_t, std::vector<std::string>> frames;
  std::map<std::uintptr_t, std::vector<AddressFrame>> raw;  // every frame, innermost first
  std::uintptr_t current = 0;
  bool have_current = false;
  bool function_next = true;  // lines alternate: function, then "file:line"
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("0x", 0) == 0) {
      current = static_cast<std::uintptr_t>(std::strtoull(line.c_str(), nullptr, 16));
      have_current = true;
      function_next = true;
      frames[current];
    } else if (have_current && function_next) {
      raw[current].push_back({line, ""});
      function_next = false;
    } else if (have_current) {
      const std::string frame = frame_of(line);
      if (!frame.empty()) frames[current].push_back(frame);
      if (!raw[current].empty()) raw[current].back().place = frame;
      function_next = true;
    }
  }
  // The launch lines of this object's kernels: where the lambda's frame is.
  std::set<std::string> launch_places;
  for (const auto& [offset, list] : raw) {
    if (std::string place = launch_lambda_place(list); !place.empty()) launch_places.insert(place);
  }
  std::map<std::uintptr_t, CodeLocation> located;
  for (const std::uintptr_t offset : offsets) {
    // Only what addr2line answered: output cut off at its cap answers nothing for the rest.
    if (frames.count(offset) == 0) continue;
    located[offset] = location_of(frames[offset], is_launch_thunk(raw[offset], launch_places));
  }
  return located;
}

std::vector<CodeLocation> code_locations_of(const std::vector<const void*>& code_addresses) {
  std::lock_guard lock(g_mutex);
  // The addresses not known yet, by object: one addr2line run per object, for those the
  // run's code places do not hold.
  std::map<std::string, std::vector<std::pair<std::uintptr_t, const void*>>> unknown;
  for (const void* address : code_addresses) {
    if (g_known.count(address) != 0) continue;
    std::string object;
    std::uintptr_t offset = 0;
    bool in_executable = false;
    if (!object_and_offset(address, object, offset, in_executable)) {
      g_known[address] = displayed({});
      continue;
    }
    if (const CodePlace* place = in_executable ? known_code_place(offset) : nullptr) {
      g_known[address] = displayed(place->location);
      continue;
    }
    unknown[object].push_back({offset, address});
  }
  for (const auto& [object, addresses] : unknown) {
    std::vector<std::uintptr_t> offsets;
    for (const auto& entry : addresses) offsets.push_back(entry.first);
    const std::map<std::uintptr_t, CodeLocation> located = locate_in_object(object, offsets);
    for (const auto& [offset, address] : addresses) {
      const auto answer = located.find(offset);
      g_known[address] = displayed(answer != located.end() ? answer->second : CodeLocation{});
    }
  }
  std::vector<CodeLocation> locations;
  locations.reserve(code_addresses.size());
  for (const void* address : code_addresses) locations.push_back(g_known[address]);
  return locations;
}

std::string source_line_of(const void* code_address) {
  return code_locations_of({code_address}).front().line;
}

}  // namespace parlab_sim::detail
