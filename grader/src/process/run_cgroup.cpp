#include "process/run_cgroup.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace parlab::grader::process {
namespace {

namespace fs = std::filesystem;

constexpr const char* kV1Controllers[] = {"memory", "pids", "cpuacct"};

bool write_text(const fs::path& file, const std::string& text) {
  std::ofstream out(file);
  out << text;
  out.flush();
  return static_cast<bool>(out);
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// "key value" lines (memory.oom_control, memory.events, cpu.stat).
std::uint64_t keyed_value(const std::string& text, const std::string& key) {
  std::istringstream lines(text);
  std::string name;
  std::uint64_t value = 0;
  while (lines >> name >> value) {
    if (name == key) return value;
  }
  return 0;
}

std::uint64_t number_in(const fs::path& file) {
  std::string text = read_text(file);
  return text.empty() ? 0 : std::strtoull(text.c_str(), nullptr, 10);
}

// A folder we may create children in: it exists (or can be made) and takes a test child.
bool usable_parent(const fs::path& base) {
  std::error_code error;
  fs::create_directories(base, error);
  fs::path probe = base / ("probe-" + std::to_string(::getpid()));
  if (!fs::create_directory(probe, error) && !fs::is_directory(probe)) return false;
  bool ok = fs::exists(probe / "cgroup.procs");
  ::rmdir(probe.c_str());
  return ok;
}

// Empty run cgroups left by graders that crashed (their pid is gone): removed, so
// they do not pile up. rmdir only removes empty ones; busy ones stay.
void remove_stale_runs(const fs::path& base) {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(base, error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("run-", 0) != 0) continue;
    const pid_t owner = static_cast<pid_t>(std::strtol(name.c_str() + 4, nullptr, 10));
    if (owner > 0 && ::kill(owner, 0) != 0 && errno == ESRCH) ::rmdir(entry.path().c_str());
  }
}

CgroupSupport detect() {
  CgroupSupport support;
  if (const char* off = std::getenv("PARLAB_NO_CGROUP"); off && *off) {
    support.problem = "cgroups turned off (PARLAB_NO_CGROUP)";
    return support;
  }
  // v1 (or hybrid): one hierarchy per controller.
  std::vector<fs::path> v1;
  for (const char* controller : kV1Controllers) {
    fs::path root = fs::path("/sys/fs/cgroup") / controller;
    if (fs::exists(root / "cgroup.procs") && usable_parent(root / "parlab"))
      v1.push_back(root / "parlab");
  }
  if (v1.size() == 3) {
    for (const fs::path& base : v1) remove_stale_runs(base);
    support.kind = CgroupSupport::Kind::v1;
    support.bases = v1;
    return support;
  }
  // v2: a delegated subtree offering memory and pids.
  const char* configured = std::getenv("PARLAB_CGROUP_V2");
  fs::path base = configured && *configured ? fs::path(configured) : fs::path("/sys/fs/cgroup/parlab");
  if (fs::exists("/sys/fs/cgroup/cgroup.controllers") && usable_parent(base)) {
    // One at a time: a controller the parent does not offer would fail them all.
    for (const char* controller : {"+memory", "+pids", "+cpu"})
      write_text(base / "cgroup.subtree_control", controller);
    std::string offered = read_text(base / "cgroup.subtree_control");
    if (offered.find("memory") != std::string::npos && offered.find("pids") != std::string::npos) {
      remove_stale_runs(base);
      support.kind = CgroupSupport::Kind::v2;
      support.bases = {base};
      return support;
    }
    support.problem = "cgroup v2 subtree " + base.string() + " does not offer memory and pids";
    return support;
  }
  support.problem = ::geteuid() == 0 ? "no writable memory, pids and cpuacct cgroups here"
                                     : "the grader is not root and no cgroup v2 subtree is "
                                       "delegated to it (PARLAB_CGROUP_V2)";
  return support;
}

std::string unique_run_name() {
  static std::atomic<unsigned> counter{0};
  return "run-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

}  // namespace

std::string CgroupSupport::describe() const {
  switch (kind) {
    case Kind::v1:
      return "cgroup v1 memory+pids+cpuacct";
    case Kind::v2:
      return "cgroup v2 memory+pids+cpu";
    case Kind::none:
      break;
  }
  return "no cgroup (" + problem + "): per-process rlimits only";
}

const CgroupSupport& detect_cgroup_support() {
  static const CgroupSupport support = detect();
  return support;
}

RunCgroup::RunCgroup(const CgroupSupport& support, std::uint64_t memory_bytes,
                     std::uint64_t max_pids)
    : kind_(support.kind) {
  const std::string name = unique_run_name();
  for (const fs::path& base : support.bases) {
    fs::path dir = base / name;
    std::error_code error;
    if (!fs::create_directory(dir, error))
      throw std::runtime_error("cannot create the run's cgroup " + dir.string() + ": " +
                               error.message());
    dirs_.push_back(dir);
    procs_files_.push_back((dir / "cgroup.procs").string());
  }
  auto set = [](const fs::path& file, const std::string& value) {
    if (!write_text(file, value))
      throw std::runtime_error("cannot set " + file.string() + " to " + value);
  };
  if (kind_ == CgroupSupport::Kind::v1) {
    if (memory_bytes > 0) {
      set(dirs_[0] / "memory.limit_in_bytes", std::to_string(memory_bytes));
      // Swap must not be a way around the limit (absent without swap accounting).
      if (fs::exists(dirs_[0] / "memory.memsw.limit_in_bytes"))
        set(dirs_[0] / "memory.memsw.limit_in_bytes", std::to_string(memory_bytes));
    }
    if (max_pids > 0) set(dirs_[1] / "pids.max", std::to_string(max_pids));
  } else if (kind_ == CgroupSupport::Kind::v2) {
    if (memory_bytes > 0) {
      set(dirs_[0] / "memory.max", std::to_string(memory_bytes));
      if (fs::exists(dirs_[0] / "memory.swap.max")) set(dirs_[0] / "memory.swap.max", "0");
    }
    if (max_pids > 0) set(dirs_[0] / "pids.max", std::to_string(max_pids));
  }
}

std::vector<int> RunCgroup::kill_all() {
  std::vector<int> signalled;
  if (dirs_.empty()) return signalled;
  // v2 has cgroup.kill (Linux 5.14); otherwise kill what is listed until nothing is,
  // since a process may fork while we read the list.
  const fs::path& dir = kind_ == CgroupSupport::Kind::v1 ? dirs_[1] : dirs_[0];
  if (kind_ == CgroupSupport::Kind::v2 && fs::exists(dir / "cgroup.kill"))
    write_text(dir / "cgroup.kill", "1");
  for (int round = 0; round < 1000; ++round) {
    std::istringstream pids(read_text(dir / "cgroup.procs"));
    pid_t pid = 0;
    bool any = false;
    while (pids >> pid) {
      any = true;
      ::kill(pid, SIGKILL);
      signalled.push_back(pid);
    }
    if (!any) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return signalled;
}

CgroupUsage RunCgroup::usage() const {
  CgroupUsage usage;
  if (kind_ == CgroupSupport::Kind::v1) {
    usage.memory_peak_bytes = number_in(dirs_[0] / "memory.max_usage_in_bytes");
    usage.oom_kills = keyed_value(read_text(dirs_[0] / "memory.oom_control"), "oom_kill");
    usage.cpu_seconds = static_cast<double>(number_in(dirs_[2] / "cpuacct.usage")) / 1e9;
  } else if (kind_ == CgroupSupport::Kind::v2) {
    usage.memory_peak_bytes = number_in(dirs_[0] / "memory.peak");
    usage.oom_kills = keyed_value(read_text(dirs_[0] / "memory.events"), "oom_kill");
    usage.cpu_seconds =
        static_cast<double>(keyed_value(read_text(dirs_[0] / "cpu.stat"), "usage_usec")) / 1e6;
  }
  return usage;
}

RunCgroup::~RunCgroup() {
  kill_all();
  // Exited processes leave the cgroup at once; zombies do not hold it. Retry a little
  // in case the last kills are still being delivered.
  for (const fs::path& dir : dirs_) {
    for (int attempt = 0; attempt < 500 && ::rmdir(dir.c_str()) != 0 && errno == EBUSY; ++attempt)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace parlab::grader::process
