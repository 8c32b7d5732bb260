#pragma once
// Shared helpers for the process runner's tests: where the fake children are,
// scratch directories the unprivileged sandbox user can reach, and a request
// with sensible small limits.
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <string>

#include "process/process_runner.hpp"
#include "scratch_dir.hpp"
#include "process/reach_bridge.hpp"
#include "process/sandboxed_runner.hpp"

namespace parlab::grader::test {

// A clone under /root (mode 0700, README's quick start as root): the pool uid the
// children drop to cannot pass /root to reach the fake children in the build. Bridge
// each private ancestor in the children's mount namespace, as `grade` does for its
// build (grading/sandbox_reach.cpp). Not root: no privilege drop, nothing to bridge.
inline bool bridge_private_ancestors(const std::filesystem::path& path) {
  std::filesystem::path walked;
  for (auto part = path.begin(); part != path.end(); ++part) {
    walked /= *part;
    struct stat st{};
    if (std::next(part) == path.end() || ::stat(walked.c_str(), &st) != 0) break;
    if (S_ISDIR(st.st_mode) && !(st.st_mode & S_IXOTH)) {
      process::add_reach_bridge(walked, walked / *std::next(part));
    }
  }
  return true;
}

inline std::filesystem::path fake_child(const std::string& name) {
  static const bool bridged = bridge_private_ancestors(PARLAB_FAKE_CHILDREN_DIR);
  (void)bridged;
  return std::filesystem::path(PARLAB_FAKE_CHILDREN_DIR) / ("fake_" + name);
}

using parlab::testing::ScratchDir;  // tests/unit/support/scratch_dir.hpp

// Runs fake_<name> in scratch/"work" with short limits; the fakes' directory is
// the read-only view, as the grader does with a build directory.
inline RunRequest fake_request(const std::string& name, const ScratchDir& scratch) {
  RunRequest request;
  request.executable = fake_child(name);
  request.work_dir = scratch / "work";
  request.env = {{"PATH", "/usr/bin:/bin"}};
  request.limits.wall_seconds = 5;
  request.limits.cpu_seconds = 5;
  request.limits.address_space_mb = 1024;
  request.limits.file_size_mb = 16;
  request.view.read_only = {PARLAB_FAKE_CHILDREN_DIR};
  return request;
}

inline SandboxOptions options_with(SandboxOptions::Bubblewrap mode) {
  SandboxOptions options;
  options.use_bubblewrap = mode;
  return options;
}

inline bool bubblewrap_works_here() {
  static const bool works =
      SandboxedRunner(options_with(SandboxOptions::Bubblewrap::if_available)).sandbox_name() ==
      "bubblewrap";
  return works;
}

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace parlab::grader::test

// Inside a TEST_CASE: runs the case twice, rlimits only and bubblewrap where it
// works (on a machine without it the second run is the same as the first).
#define PARLAB_EACH_SANDBOX_MODE()                              \
  GENERATE(::parlab::grader::SandboxOptions::Bubblewrap::never, \
           ::parlab::grader::SandboxOptions::Bubblewrap::if_available)
