#include "process/stuck_tree.hpp"

#include <dirent.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <filesystem>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace parlab::grader::process {
namespace {

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::vector<std::string> numeric_entries(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d)) {
      if (e->d_name[0] >= '1' && e->d_name[0] <= '9') names.emplace_back(e->d_name);
    }
    ::closedir(d);
  }
  return names;
}

struct Stat {
  char state = '?';
  pid_t ppid = -1, pgid = -1;
  unsigned long long ticks = 0;
  bool ok = false;
};

// /proc/PID/stat after the command (which may hold spaces and parentheses).
Stat read_stat(const std::string& path) {
  Stat s;
  const std::string text = read_first_line(path);
  const auto close = text.rfind(')');
  if (close == std::string::npos) return s;
  std::istringstream rest(text.substr(close + 1));
  std::string field;
  std::vector<std::string> f;
  while (rest >> field && f.size() < 14) f.push_back(field);
  if (f.size() < 14) return s;
  s.state = f[0][0];
  s.ppid = static_cast<pid_t>(std::stol(f[1]));
  s.pgid = static_cast<pid_t>(std::stol(f[2]));
  s.ticks = std::stoull(f[11]) + std::stoull(f[12]);  // utime, stime
  s.ok = true;
  return s;
}

bool fd_is_pipe(const std::string& task_dir, long fd) {
  char target[256];
  const std::string link = task_dir + "/fd/" + std::to_string(fd);
  const ssize_t n = ::readlink(link.c_str(), target, sizeof target - 1);
  if (n <= 0) return false;
  return std::string(target, static_cast<std::size_t>(n)).rfind("pipe:", 0) == 0;
}

bool holds_gpu(const std::string& proc_dir) {
  for (const std::string& fd : numeric_entries(proc_dir + "/fd")) {
    char target[256];
    const std::string link = proc_dir + "/fd/" + fd;
    const ssize_t n = ::readlink(link.c_str(), target, sizeof target - 1);
    if (n > 0 && std::string(target, static_cast<std::size_t>(n)).rfind("/dev/nvidia", 0) == 0) {
      return true;
    }
  }
  return false;
}

// One thread: its state letter, then the system call it sleeps in (with its first
// argument, the file descriptor of read/write), then the kernel function as fallback.
BlockedIn classify_thread(const std::string& task_dir, const std::string& proc_dir, char state,
                          std::string& wchan) {
  if (state == 'Z' || state == 'X') return BlockedIn::exited;
  if (state == 'R') return BlockedIn::running;
  wchan = read_first_line(task_dir + "/wchan");
  std::istringstream call(read_first_line(task_dir + "/syscall"));
  long nr = -1;
  std::string arg0;
  if (call >> nr >> arg0) {
    const long fd = std::strtol(arg0.c_str(), nullptr, 16);
    switch (nr) {
      case SYS_read:
        if (fd_is_pipe(proc_dir, fd)) return BlockedIn::pipe_read;
        break;
      case SYS_write:
        if (fd_is_pipe(proc_dir, fd)) return BlockedIn::pipe_write;
        break;
      case SYS_wait4:
      case SYS_waitid:
        return BlockedIn::child_wait;
#ifdef SYS_poll
      case SYS_poll:
#endif
#ifdef SYS_select
      case SYS_select:
#endif
#ifdef SYS_epoll_wait
      case SYS_epoll_wait:
#endif
      case SYS_ppoll:
      case SYS_pselect6:
      case SYS_epoll_pwait:
        return BlockedIn::poll;
      case SYS_futex:
        return BlockedIn::futex;
      case SYS_nanosleep:
      case SYS_clock_nanosleep:
        return BlockedIn::sleep;
      default:
        break;
    }
  }
  // Without the system call (not readable, or another architecture): the function.
  if (wchan.find("wait_for_partner") != std::string::npos) return BlockedIn::fifo_open;
  if (wchan.find("pipe_read") != std::string::npos) return BlockedIn::pipe_read;
  if (wchan.find("pipe_write") != std::string::npos) return BlockedIn::pipe_write;
  if (wchan == "do_wait") return BlockedIn::child_wait;
  if (wchan.find("futex") != std::string::npos) return BlockedIn::futex;
  return BlockedIn::other;
}

// How far from a deadlock a thread is: the process counts as its least blocked thread.
int progress_rank(BlockedIn b) {
  switch (b) {
    case BlockedIn::running: return 4;
    case BlockedIn::other: return 3;
    case BlockedIn::sleep: return 3;
    case BlockedIn::futex: return 2;
    case BlockedIn::exited: return 0;
    default: return 1;
  }
}

bool cannot_progress(BlockedIn b) {
  switch (b) {
    case BlockedIn::pipe_read:
    case BlockedIn::pipe_write:
    case BlockedIn::child_wait:
    case BlockedIn::poll:
    case BlockedIn::fifo_open:
    case BlockedIn::exited:
      return true;
    default:
      return false;
  }
}

std::string doing(BlockedIn b, bool plural) {
  switch (b) {
    case BlockedIn::pipe_read: return "reading from a pipe that nobody writes";
    case BlockedIn::pipe_write: return "writing to a full pipe";
    case BlockedIn::child_wait: return "in wait4 (waiting for a child)";
    case BlockedIn::poll: return "in poll/select";
    case BlockedIn::fifo_open: return "opening a FIFO";
    case BlockedIn::futex: return "waiting on a lock or condition variable";
    case BlockedIn::sleep: return "sleeping";
    case BlockedIn::exited: return plural ? "exited but never waited for (zombies)"
                                          : "exited but never waited for (a zombie)";
    case BlockedIn::running: return "running";
    default: return "blocked in the kernel";
  }
}

// A Python program's processes wait in pipes and locks inside multiprocessing, whose
// classic hangs are not about pipe ends the student never sees. The program's file (a
// script's comm is the script's name) only chooses between two lessons.
bool runs_python(const ProcessState& top) { return top.program.rfind("python", 0) == 0; }

std::string python_advice(BlockedIn top, const std::set<BlockedIn>& workers) {
  const bool waits = top == BlockedIn::pipe_read || top == BlockedIn::poll || top == BlockedIn::futex ||
                     top == BlockedIn::child_wait || workers.count(BlockedIn::pipe_read) ||
                     workers.count(BlockedIn::futex) || workers.count(BlockedIn::pipe_write);
  if (!waits) return "";
  return "a multiprocessing.Pool never notices a worker that was killed: the result of its "
         "task never comes and map() waits forever (concurrent.futures.ProcessPoolExecutor "
         "raises BrokenProcessPool instead; with Process objects, check each exitcode). "
         "And a process that put items on a multiprocessing.Queue cannot exit until they "
         "are read: get() them before join()";
}

// The lesson for the pattern seen.
std::string advice(const std::vector<ProcessState>& tree, const ProcessState& top) {
  std::set<BlockedIn> workers;
  for (const ProcessState& p : tree) {
    if (p.pid != top.pid) workers.insert(p.blocked);
  }
  if (runs_python(top)) return python_advice(top.blocked, workers);
  if (top.blocked == BlockedIn::child_wait && workers.count(BlockedIn::pipe_write)) {
    return "read the pipes before waiting for the workers: a worker cannot exit while its "
           "pipe is full, and the pipe holds only 64 KiB";
  }
  if (top.blocked == BlockedIn::pipe_read || top.blocked == BlockedIn::poll ||
      workers.count(BlockedIn::pipe_read)) {
    return "a read from a pipe ends (EOF) only when every write end is closed, in every "
           "process: close the ends you do not use right after fork(), in the parent and in "
           "each worker (its siblings' ends too)";
  }
  if (workers.count(BlockedIn::fifo_open) || top.blocked == BlockedIn::fifo_open) {
    return "opening a FIFO waits until another process opens the other end";
  }
  if (top.blocked == BlockedIn::futex || workers.count(BlockedIn::futex)) {
    return "threads wait for each other: check the order in which locks are taken and that "
           "every wait on a condition variable has a notify";
  }
  return "";
}

}  // namespace

std::vector<ProcessState> read_process_tree(pid_t root) {
  struct Entry {
    std::string pid;
    Stat stat;
  };
  std::vector<Entry> all;
  for (const std::string& pid : numeric_entries("/proc")) {
    Stat s = read_stat("/proc/" + pid + "/stat");
    if (s.ok) all.push_back({pid, s});
  }
  // Members: the root, its process group, and descendants of members.
  std::set<pid_t> members = {root};
  for (const Entry& e : all) {
    if (e.stat.pgid == root) members.insert(static_cast<pid_t>(std::stol(e.pid)));
  }
  for (bool grew = true; grew;) {
    grew = false;
    for (const Entry& e : all) {
      const auto pid = static_cast<pid_t>(std::stol(e.pid));
      if (!members.count(pid) && members.count(e.stat.ppid)) grew = members.insert(pid).second;
    }
  }
  std::vector<ProcessState> tree;
  for (const Entry& e : all) {
    const auto pid = static_cast<pid_t>(std::stol(e.pid));
    if (!members.count(pid)) continue;
    const std::string dir = "/proc/" + e.pid;
    ProcessState p;
    p.pid = pid;
    p.ppid = e.stat.ppid;
    p.command = read_first_line(dir + "/comm");
    if (p.command == "bwrap") continue;  // the sandbox's own processes only wait
    std::error_code no_link;
    p.program = fs::read_symlink(dir + "/exe", no_link).filename().string();
    p.cpu_ticks = e.stat.ticks;
    p.uses_gpu = holds_gpu(dir);
    int best = -1;
    std::vector<std::string> tids = numeric_entries(dir + "/task");
    if (tids.empty()) tids.push_back(e.pid);
    for (const std::string& tid : tids) {
      const std::string task = dir + "/task/" + tid;
      const Stat ts = read_stat(task + "/stat");
      std::string wchan;
      const BlockedIn b =
          classify_thread(task, dir, ts.ok ? ts.state : e.stat.state, wchan);
      if (progress_rank(b) > best) {
        best = progress_rank(b);
        p.blocked = b;
        p.wait_channel = wchan;
      }
    }
    tree.push_back(std::move(p));
  }
  return tree;
}

bool all_blocked(const std::vector<ProcessState>& tree) {
  bool live = false;
  for (const ProcessState& p : tree) {
    if (p.uses_gpu || !cannot_progress(p.blocked)) return false;
    live |= p.blocked != BlockedIn::exited;
  }
  return live;
}

std::string describe_stuck_tree(const std::vector<ProcessState>& tree) {
  // Only a tree with something to explain: running or sleeping processes say nothing
  // the time limit does not already say.
  const bool telling = std::any_of(tree.begin(), tree.end(), [](const ProcessState& p) {
    return p.blocked != BlockedIn::running && p.blocked != BlockedIn::sleep &&
           p.blocked != BlockedIn::other;
  });
  if (!telling) return "";
  // The program is the member whose parent is not a member.
  std::set<pid_t> pids;
  for (const ProcessState& p : tree) pids.insert(p.pid);
  // (orphans, adopted by the grader, also qualify: the program has the smallest pid).
  const ProcessState* top = nullptr;
  for (const ProcessState& p : tree) {
    if (!pids.count(p.ppid) && (!top || p.pid < top->pid)) top = &p;
  }
  if (!top) top = &tree.front();
  std::map<BlockedIn, int> workers;
  for (const ProcessState& p : tree) {
    if (p.pid != top->pid) ++workers[p.blocked];
  }
  std::string text = all_blocked(tree) ? "all " + std::to_string(tree.size()) +
                                             (tree.size() == 1 ? " process" : " processes") +
                                             " blocked: "
                                       : "at the limit: ";
  text += "the program " + doing(top->blocked, false);
  for (const auto& [what, count] : workers) {
    text += ", " + std::to_string(count) + (count == 1 ? " worker " : " workers ") +
            doing(what, count > 1);
  }
  const std::string lesson = advice(tree, *top);
  if (!lesson.empty()) text += "; " + lesson;
  return text;
}

StuckWatch::StuckWatch(pid_t root, Clock::duration every, Clock::duration quiet)
    : root_(root), every_(every), quiet_(quiet), next_sample_(Clock::now() + every) {}

std::optional<std::string> StuckWatch::check(Clock::time_point now) {
  if (now < next_sample_) return std::nullopt;
  next_sample_ = now + every_;
  const std::vector<ProcessState> tree = read_process_tree(root_);
  unsigned long long ticks = 0;
  for (const ProcessState& p : tree) ticks += p.cpu_ticks;
  const bool still = all_blocked(tree) && (!quiet_since_ || ticks == last_ticks_);
  last_ticks_ = ticks;
  if (!still) {
    quiet_since_.reset();
    return std::nullopt;
  }
  if (!quiet_since_) quiet_since_ = now;
  if (now - *quiet_since_ < quiet_) return std::nullopt;
  return describe_stuck_tree(tree);
}

}  // namespace parlab::grader::process
