#pragma once
// What a child's process tree is doing when it will not finish: each process's state
// (/proc/PID/stat), the system call it sleeps in (/proc/PID/syscall, /proc/PID/wchan)
// and, for read/write, whether the file descriptor is a pipe. Two uses:
//  - at the time limit, one sentence on what the grader saw before killing
//    ("all 3 processes blocked: the program in wait4, 2 workers writing to a full
//    pipe; read the pipes before waiting for the workers");
//  - StuckWatch: a tree where every process sleeps in a pipe read or write, a wait
//    for a child, poll/select or a FIFO open, and no CPU time is used for a while,
//    is a deadlock that cannot finish: the monitor stops it early.
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace parlab::grader::process {

// Where one thread sleeps, sorted into what a diagnosis can explain.
enum class BlockedIn {
  running,      // on a CPU or runnable: not blocked
  pipe_read,    // read() on a pipe
  pipe_write,   // write() on a pipe (full: nobody reads it)
  child_wait,   // wait4/waitid/waitpid
  poll,         // poll/select/epoll
  fifo_open,    // opening a FIFO nobody opened for the other end
  futex,        // a lock or condition variable (threads)
  sleep,        // nanosleep: it will wake by itself
  exited,       // zombie: ended, not yet waited for
  other,        // a disk read, a device, anything else
};

struct ProcessState {
  pid_t pid = -1;
  pid_t ppid = -1;
  std::string command;  // /proc/PID/comm: untrusted, only counted here, never shown
  std::string program;  // the file name of /proc/PID/exe (python3.11 for a script), never shown
  BlockedIn blocked = BlockedIn::other;  // of its least blocked thread
  std::string wait_channel;              // the kernel function, for the report
  unsigned long long cpu_ticks = 0;      // utime + stime, all threads
  bool uses_gpu = false;                 // holds /dev/nvidia*: never judged deadlocked
};

// Every process of the tree under `root` (its descendants and its process group),
// without the bubblewrap processes that only wait for the program.
std::vector<ProcessState> read_process_tree(pid_t root);

// True when no process can make progress by itself: each one has exited or is
// blocked in a pipe, a wait for a child, poll or a FIFO open, and none uses a GPU.
bool all_blocked(const std::vector<ProcessState>& tree);

// "all 3 processes blocked: the program in wait4, 2 workers writing to a full pipe;
// read the pipes before waiting for the workers". Empty for an empty tree.
std::string describe_stuck_tree(const std::vector<ProcessState>& tree);

// Samples the tree now and then; says when it has been all blocked, with no CPU time
// used, for `quiet` in a row. The first sample waits `every` after construction, so
// short runs (every measured run of a performance test, usually) are never sampled.
class StuckWatch {
 public:
  using Clock = std::chrono::steady_clock;
  StuckWatch(pid_t root, Clock::duration every, Clock::duration quiet);

  // The diagnosis once the tree is judged deadlocked; nothing before. Samples at most
  // once per `every`.
  std::optional<std::string> check(Clock::time_point now);

 private:
  pid_t root_;
  Clock::duration every_, quiet_;
  Clock::time_point next_sample_{};
  std::optional<Clock::time_point> quiet_since_;
  unsigned long long last_ticks_ = 0;
};

}  // namespace parlab::grader::process
