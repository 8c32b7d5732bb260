#include "process/bwrap_probe.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <exception>
#include <map>
#include <mutex>

#include "process/bwrap_command.hpp"
#include "process/bwrap_status.hpp"
#include "process/child_monitor.hpp"
#include "process/rlimits.hpp"
#include "process/spawn_child.hpp"

namespace parlab::grader::process {
namespace {

namespace fs = std::filesystem;

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

fs::path find_true() {
  for (const char* candidate : {"/usr/bin/true", "/bin/true"}) {
    std::error_code error;
    fs::path resolved = fs::canonical(candidate, error);
    if (!error) return resolved;
  }
  return {};
}

BubblewrapCheck probe(const fs::path& bwrap, const std::optional<SandboxUser>& run_as) {
  if (::access(bwrap.c_str(), X_OK) != 0)
    return {false, "bubblewrap is not installed (no executable " + bwrap.string() + ")"};
  fs::path true_program = find_true();
  if (true_program.empty()) return {false, "cannot find `true` to test bubblewrap with"};

  Pipe status_pipe = make_pipe();
  BwrapLayout layout;
  layout.system_dirs = inspect_system_dirs();
  layout.executable = true_program;
  layout.status_fd = status_pipe.write_end.get();
  std::vector<std::string> args = bubblewrap_arguments(layout);
  args.push_back(true_program.string());

  ResourceLimits limits;
  ChildSetupPlan plan;
  plan.rlimits = plan_rlimits(limits, run_as.has_value(), kBubblewrapHelperProcesses);
  plan.drop_privileges = run_as.has_value();
  if (run_as) {
    plan.uid = run_as->uid;
    plan.gid = run_as->gid;
  }
  plan.no_new_privileges = false;
  plan.keep_open_fd = status_pipe.write_end.get();
  plan.grader_pid = ::getpid();
  plan.work_dir = "/";

  try {
    MonitoredChild child;
    child.started = std::chrono::steady_clock::now();
    SpawnedChild spawned = spawn_child(bwrap.string(), args, {}, plan);
    child.pid = spawned.pid;
    child.stdout_read = std::move(spawned.stdout_read);
    child.stderr_read = std::move(spawned.stderr_read);
    status_pipe.write_end.reset();
    child.status_read = std::move(status_pipe.read_end);
    MonitorLimits monitor_limits;
    monitor_limits.wall_seconds = 10;
    ChildEnd end = monitor_child(std::move(child), monitor_limits);
    reap_sandbox_init(parse_bwrap_status(end.status_text));
    if (WIFEXITED(end.wait_status) && WEXITSTATUS(end.wait_status) == 0) return {true, ""};
    std::string said = trimmed(end.stderr_capture.text());
    return {false, "bubblewrap does not work here" + (said.empty() ? "" : ": " + said)};
  } catch (const std::exception& error) {
    return {false, std::string("bubblewrap does not work here: ") + error.what()};
  }
}

}  // namespace

BubblewrapCheck check_bubblewrap(const fs::path& bwrap, const std::optional<SandboxUser>& run_as) {
  static std::mutex mutex;
  static std::map<std::string, BubblewrapCheck> cache;
  std::string key = bwrap.string() + (run_as ? " as " + std::to_string(run_as->uid) + ":" +
                                                   std::to_string(run_as->gid)
                                             : " as grader");
  std::lock_guard<std::mutex> lock(mutex);
  auto found = cache.find(key);
  if (found != cache.end()) return found->second;
  BubblewrapCheck result = probe(bwrap, run_as);
  cache.emplace(key, result);
  return result;
}

}  // namespace parlab::grader::process
