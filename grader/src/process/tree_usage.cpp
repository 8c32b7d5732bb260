#include "process/tree_usage.hpp"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>

namespace fs = std::filesystem;

namespace parlab::grader::process {
namespace {

struct TaskStat {
  pid_t ppid = 0;
  unsigned long long cpu_ticks = 0;  // utime + stime
  unsigned long long start = 0;      // start time since boot, in ticks
};

std::optional<std::string> read_small(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// /proc/<pid>/stat: "pid (comm) state ppid ...": the command may hold spaces and
// parentheses, so fields are counted from the last ')'.
std::optional<TaskStat> read_stat(const fs::path& path) {
  std::optional<std::string> text = read_small(path);
  if (!text) return std::nullopt;
  const std::size_t close = text->rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(text->substr(close + 1));
  std::vector<std::string> f;
  for (std::string word; fields >> word && f.size() < 20;) f.push_back(word);
  if (f.size() < 20) return std::nullopt;
  // f[0] is field 3 (state): ppid 4, utime 14, stime 15, starttime 22.
  TaskStat s;
  auto number = [](const std::string& w, auto& out) {
    return std::from_chars(w.data(), w.data() + w.size(), out).ec == std::errc{};
  };
  unsigned long long utime = 0, stime = 0;
  if (!number(f[1], s.ppid) || !number(f[11], utime) || !number(f[12], stime) ||
      !number(f[19], s.start))
    return std::nullopt;
  s.cpu_ticks = utime + stime;
  return s;
}

std::optional<pid_t> pid_named(const std::string& name) {
  pid_t pid = 0;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), pid);
  if (ec != std::errc{} || end != name.data() + name.size() || pid <= 0) return std::nullopt;
  return pid;
}

double spread(double total, double busiest) { return busiest > 0 ? total / busiest : 0; }

}  // namespace

double TreeUsage::process_spread() const { return spread(cpu_seconds, busiest_process_s); }
double TreeUsage::thread_spread() const { return spread(cpu_seconds, busiest_thread_s); }

TreeSampler::TreeSampler(pid_t root, fs::path procs_file)
    : root_(root), procs_file_(std::move(procs_file)), ticks_per_second_(::sysconf(_SC_CLK_TCK)) {
  if (ticks_per_second_ <= 0) ticks_per_second_ = 100;
}

std::vector<pid_t> TreeSampler::tree_pids() const {
  std::vector<pid_t> pids;
  if (!procs_file_.empty()) {
    if (std::optional<std::string> text = read_small(procs_file_)) {
      std::istringstream lines(*text);
      for (std::string line; std::getline(lines, line);)
        if (std::optional<pid_t> pid = pid_named(line)) pids.push_back(*pid);
      return pids;
    }
  }
  // No cgroup: every process whose ancestry reaches the root.
  std::map<pid_t, pid_t> parent_of;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator("/proc", error)) {
    std::optional<pid_t> pid = pid_named(entry.path().filename().string());
    if (!pid) continue;
    if (std::optional<TaskStat> s = read_stat(entry.path() / "stat")) parent_of[*pid] = s->ppid;
  }
  for (const auto& [pid, ppid] : parent_of) {
    pid_t at = pid;
    for (int depth = 0; depth < 64 && at > 1; ++depth) {
      if (at == root_) {
        pids.push_back(pid);
        break;
      }
      auto up = parent_of.find(at);
      if (up == parent_of.end()) break;
      at = up->second;
    }
  }
  return pids;
}

void TreeSampler::sample_process(pid_t pid) {
  const fs::path dir = fs::path("/proc") / std::to_string(pid);
  std::optional<TaskStat> process = read_stat(dir / "stat");
  if (!process) return;  // gone since it was listed
  // The process's own stat includes its threads that already ended.
  auto& ticks = process_ticks_[{pid, process->start}];
  ticks = std::max(ticks, process->cpu_ticks);
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir / "task", error)) {
    std::optional<pid_t> tid = pid_named(entry.path().filename().string());
    if (!tid) continue;
    if (std::optional<TaskStat> thread = read_stat(entry.path() / "stat")) {
      auto& t = thread_ticks_[{*tid, thread->start}];
      t = std::max(t, thread->cpu_ticks);
    }
  }
}

void TreeSampler::sample() {
  for (pid_t pid : tree_pids()) sample_process(pid);
}

TreeUsage TreeSampler::usage() const {
  TreeUsage u;
  const double tick = 1.0 / static_cast<double>(ticks_per_second_);
  unsigned long long total = 0, busiest_process = 0, busiest_thread = 0;
  for (const auto& [key, ticks] : process_ticks_) {
    if (ticks == 0) continue;
    ++u.processes;
    total += ticks;
    busiest_process = std::max(busiest_process, ticks);
  }
  for (const auto& [key, ticks] : thread_ticks_) {
    if (ticks == 0) continue;
    ++u.threads;
    busiest_thread = std::max(busiest_thread, ticks);
  }
  u.observed = !process_ticks_.empty();
  u.cpu_seconds = static_cast<double>(total) * tick;
  u.busiest_process_s = static_cast<double>(busiest_process) * tick;
  u.busiest_thread_s = static_cast<double>(busiest_thread) * tick;
  return u;
}

}  // namespace parlab::grader::process
