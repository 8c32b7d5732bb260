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

// /proc/<pid>/task/<tid>/schedstat: "run_ns wait_ns timeslices".
std::optional<double> read_run_seconds(const fs::path& path) {
  std::optional<std::string> text = read_small(path);
  if (!text) return std::nullopt;
  unsigned long long ns = 0;
  const char* begin = text->data();
  if (std::from_chars(begin, begin + text->size(), ns).ec != std::errc{}) return std::nullopt;
  return static_cast<double>(ns) / 1e9;
}

std::optional<pid_t> pid_named(const std::string& name) {
  pid_t pid = 0;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), pid);
  if (ec != std::errc{} || end != name.data() + name.size() || pid <= 0) return std::nullopt;
  return pid;
}

double spread(double total, double busiest) { return busiest > 0 ? total / busiest : 0; }

// A process or thread counts as working with at least this share of the tree's CPU time.
constexpr double kWorkingShare = 0.05;

}  // namespace

double TreeUsage::process_spread() const { return spread(cpu_seconds, busiest_process_s); }

double TreeUsage::coverage(double tree_cpu_seconds) const {
  // Without a total measured apart, what the samples missed cannot be known.
  if (!(tree_cpu_seconds > 0)) return 0;
  return (cpu_seconds + helper_seconds) / tree_cpu_seconds;
}
double TreeUsage::thread_spread() const { return spread(cpu_seconds, busiest_thread_s); }

TreeSampler::TreeSampler(pid_t root, fs::path procs_file, int helper_depth)
    : root_(root),
      helper_depth_(helper_depth),
      procs_file_(std::move(procs_file)),
      ticks_per_second_(::sysconf(_SC_CLK_TCK)) {
  if (ticks_per_second_ <= 0) ticks_per_second_ = 100;
}

// Only the root's own child can have it as parent: an orphan of the run is adopted by the
// sandbox's init (the pid namespace's reaper), never by the root, so no process of the
// run can pass for a helper.
bool TreeSampler::is_helper(pid_t pid, pid_t ppid) const {
  return (helper_depth_ >= 1 && pid == root_) || (helper_depth_ >= 2 && ppid == root_);
}

std::vector<pid_t> TreeSampler::tree_pids() {
  std::vector<pid_t> pids;
  if (!procs_file_.empty()) {
    if (std::optional<std::string> text = read_small(procs_file_)) {
      std::istringstream lines(*text);
      for (std::string line; std::getline(lines, line);)
        if (std::optional<pid_t> pid = pid_named(line)) pids.push_back(*pid);
      return pids;
    }
  }
  // No cgroup: every process whose parent is in the tree. Each process is classified
  // once, when first listed (its parent came first: pids grow), so a look reads /proc's
  // listing and the stat of new processes only.
  std::error_code error;
  std::vector<pid_t> listed;
  for (const auto& entry : fs::directory_iterator("/proc", error)) {
    if (std::optional<pid_t> pid = pid_named(entry.path().filename().string())) listed.push_back(*pid);
  }
  std::sort(listed.begin(), listed.end());
  for (pid_t pid : listed) {
    auto known = in_tree_.find(pid);
    if (known == in_tree_.end()) {
      bool member = pid == root_;
      if (!member) {
        if (std::optional<TaskStat> s = read_stat(fs::path("/proc") / std::to_string(pid) / "stat")) {
          auto parent = in_tree_.find(s->ppid);
          member = s->ppid == root_ || (parent != in_tree_.end() && parent->second);
        }
      }
      known = in_tree_.emplace(pid, member).first;
    }
    if (known->second) pids.push_back(pid);
  }
  return pids;
}

void TreeSampler::sample_process(pid_t pid) {
  const fs::path dir = fs::path("/proc") / std::to_string(pid);
  std::optional<TaskStat> process = read_stat(dir / "stat");
  if (!process) return;  // gone since it was listed
  if (is_helper(pid, process->ppid)) {
    double& h = helper_seconds_[{pid, process->start}];
    h = std::max(h, static_cast<double>(process->cpu_ticks) / static_cast<double>(ticks_per_second_));
    return;
  }
  const double tick = 1.0 / static_cast<double>(ticks_per_second_);
  // Each thread's run time in nanoseconds (schedstat), else its clock ticks (10 ms: too
  // coarse for a worker that lives 50 ms).
  double threads_total = 0;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir / "task", error)) {
    std::optional<pid_t> tid = pid_named(entry.path().filename().string());
    if (!tid) continue;
    std::optional<TaskStat> thread = read_stat(entry.path() / "stat");
    if (!thread) continue;
    const std::optional<double> run_s = read_run_seconds(entry.path() / "schedstat");
    double& t = thread_seconds_[{*tid, thread->start}];
    t = std::max(t, run_s ? *run_s : static_cast<double>(thread->cpu_ticks) * tick);
    threads_total += t;
  }
  // The process's own stat also counts its threads that already ended.
  double& p = process_seconds_[{pid, process->start}];
  p = std::max({p, threads_total, static_cast<double>(process->cpu_ticks) * tick});
}

void TreeSampler::sample() {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  if (start < next_allowed_) return;
  for (pid_t pid : tree_pids()) sample_process(pid);
  ++samples_;
  next_allowed_ = Clock::now() + (Clock::now() - start) * 9;
}

TreeUsage TreeSampler::usage() const {
  TreeUsage u;
  for (const auto& [key, seconds] : process_seconds_) {
    u.cpu_seconds += seconds;
    u.busiest_process_s = std::max(u.busiest_process_s, seconds);
  }
  for (const auto& [key, seconds] : thread_seconds_) {
    u.busiest_thread_s = std::max(u.busiest_thread_s, seconds);
  }
  for (const auto& [key, seconds] : helper_seconds_) u.helper_seconds += seconds;
  // Counted: the processes and threads that did a share of the work, not the sandbox's
  // helpers or an idle main thread waiting for its workers.
  const double share = kWorkingShare * u.cpu_seconds;
  for (const auto& [key, seconds] : process_seconds_) u.processes += seconds > 0 && seconds >= share;
  for (const auto& [key, seconds] : thread_seconds_) u.threads += seconds > 0 && seconds >= share;
  u.observed = !process_seconds_.empty();  // the helpers alone are not the run
  u.samples = samples_;
  return u;
}

}  // namespace parlab::grader::process
