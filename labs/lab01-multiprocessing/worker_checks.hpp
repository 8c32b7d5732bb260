#pragma once
// Lab 01 driver checks of the rules about worker processes that no output value shows:
//  - unreaped_children(): child processes of this process still there when
//    process_parallel returned (zombies never passed to waitpid, or workers still
//    running). The rule: every worker is waited for, on success and on failure.
//  - WorkerKiller: "if a worker dies, throw". A FIFO named like a CSV file is handed
//    out first; the worker that opens it blocks, is found through /proc (the child
//    holding the FIFO open) and killed with SIGKILL, as a crash would.
// Grader-owned, like driver.cpp.
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace lab01::checks {

// The parent pid field of /proc/PID/stat (the 4th, after the command in parentheses).
inline pid_t parent_of(const std::string& pid) {
  std::ifstream stat("/proc/" + pid + "/stat");
  std::string text;
  std::getline(stat, text);
  const auto close = text.rfind(')');
  if (close == std::string::npos) return -1;
  char state = 0;
  int ppid = -1;
  if (std::sscanf(text.c_str() + close + 1, " %c %d", &state, &ppid) != 2) return -1;
  return ppid;
}

// Pids of this process's children (running or zombie), from /proc.
inline std::vector<pid_t> children_of_self() {
  std::vector<pid_t> children;
  const pid_t self = ::getpid();
  DIR* proc = ::opendir("/proc");
  if (!proc) return children;
  while (const dirent* entry = ::readdir(proc)) {
    const char* name = entry->d_name;
    if (name[0] < '1' || name[0] > '9') continue;
    if (parent_of(name) == self) children.push_back(static_cast<pid_t>(std::atoi(name)));
  }
  ::closedir(proc);
  return children;
}

inline std::int64_t unreaped_children() {
  return static_cast<std::int64_t>(children_of_self().size());
}

// Whether descriptor `fd` of process `pid` is open for reading (its fdinfo's flags).
inline bool open_for_reading(pid_t pid, const std::string& fd) {
  std::ifstream info("/proc/" + std::to_string(pid) + "/fdinfo/" + fd);
  std::string key;
  while (info >> key) {
    if (key != "flags:") continue;
    unsigned long flags = 0;
    info >> std::oct >> flags;
    return (flags & O_ACCMODE) != O_WRONLY;
  }
  return false;
}

// How many descriptors of process `pid` have `path` open for reading. Only readers
// count: a worker forked after the watcher opened the FIFO's write end inherits that
// end, and killing it instead of the reader left the reader blocked for ever.
inline int times_open_for_reading(pid_t pid, const std::filesystem::path& path) {
  std::error_code ec;
  const std::filesystem::path fds = "/proc/" + std::to_string(pid) + "/fd";
  int count = 0;
  for (std::filesystem::directory_iterator it(fds, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code link_ec;
    if (std::filesystem::read_symlink(it->path(), link_ec) == path &&
        open_for_reading(pid, it->path().filename().string())) {
      ++count;
    }
  }
  return count;
}

// Does process `pid` hold `path` open for reading?
inline bool reads(pid_t pid, const std::filesystem::path& path) {
  return times_open_for_reading(pid, path) > 0;
}

class WorkerKiller {
 public:
  // Creates the FIFO `dir`/worker_dies.csv and starts watching for its reader.
  explicit WorkerKiller(const std::filesystem::path& dir) : fifo_(dir / "worker_dies.csv") {
    std::filesystem::create_directories(dir);
    std::filesystem::remove(fifo_);
    if (::mkfifo(fifo_.c_str(), 0600) != 0) {
      throw std::runtime_error("driver: cannot create " + fifo_.string() + ": " +
                               std::strerror(errno));
    }
    watcher_ = std::thread([this] { watch(); });
  }
  WorkerKiller(const WorkerKiller&) = delete;
  WorkerKiller& operator=(const WorkerKiller&) = delete;
  ~WorkerKiller() {
    stop_ = true;
    watcher_.join();
    if (write_fd_ >= 0) ::close(write_fd_);
    std::error_code ec;
    std::filesystem::remove(fifo_, ec);
    // Its folder too, once empty: without bubblewrap the run's /tmp is the machine's.
    std::filesystem::remove(fifo_.parent_path(), ec);
  }

  const std::filesystem::path& path() const { return fifo_; }
  bool killed() const { return killed_; }
  // The driver's own process opened the FIFO (threads, or no worker processes): there
  // was no worker to kill, and the read was ended at once rather than after 20 s.
  bool read_in_parent() const { return read_in_parent_; }

 private:
  void watch() {
    using namespace std::chrono;
    const auto give_up = steady_clock::now() + seconds(20);
    while (!stop_ && steady_clock::now() < give_up) {
      // Succeeds once a reader has the FIFO open (or is blocked opening it); the reader
      // then blocks in read(): nothing is ever written.
      if (write_fd_ < 0) write_fd_ = ::open(fifo_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
      if (write_fd_ >= 0) {
        for (pid_t child : children_of_self()) {
          if (reads(child, fifo_)) {
            // Set first: whoever waits on the reader may ask the moment it is gone.
            killed_ = true;
            ::kill(child, SIGKILL);
            return;
          }
        }
        if (reads(::getpid(), fifo_)) {  // a reader beside our own writer
          read_in_parent_ = true;
          break;
        }
      }
      std::this_thread::sleep_for(milliseconds(10));
    }
    // Nobody to kill (the parent read the FIFO itself?): end its read with EOF.
    if (write_fd_ >= 0) {
      ::close(write_fd_);
      write_fd_ = -1;
    }
  }

  std::filesystem::path fifo_;
  std::thread watcher_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> killed_{false};
  std::atomic<bool> read_in_parent_{false};
  int write_fd_ = -1;
};

}  // namespace lab01::checks
