#pragma once
// Reference lab01: runs compute(i) for every index i in [0, n) in forked worker
// processes and gathers the results in the parent, in index order.
//
//   parent ──fork──► worker 0 ──pipe 0──► parent (poll over all pipes)
//          ──fork──► worker 1 ──pipe 1──►
// Indices reach the workers either as fixed contiguous blocks or from a counter in
// shared memory that every worker increments to claim its next file. Each worker
// writes fixed-size binary records (index, stats, or a failure with its message) to
// its own pipe. A worker that dies or fails makes the whole call throw; the others are
// killed and every child is reaped, so no zombie outlives the call.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "api.hpp"

namespace lab01::reference {

enum class Distribution { contiguous_blocks, shared_queue };

namespace detail {

[[noreturn]] inline void throw_system_error(const std::string& what) {
  throw std::runtime_error(what + ": " + std::strerror(errno));
}

// An atomic counter in memory shared by the parent and all forked children. Lock-free
// atomics do not depend on the address they live at, so they work across processes.
class SharedCounter {
 public:
  SharedCounter() {
    void* memory =
        ::mmap(nullptr, sizeof(Counter), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) throw_system_error("mmap of the shared work counter failed");
    counter_ = new (memory) Counter(0);
  }
  SharedCounter(const SharedCounter&) = delete;
  SharedCounter& operator=(const SharedCounter&) = delete;
  ~SharedCounter() { ::munmap(counter_, sizeof(Counter)); }

  std::size_t claim_next() { return counter_->fetch_add(1, std::memory_order_relaxed); }

 private:
  using Counter = std::atomic<std::size_t>;
  static_assert(Counter::is_always_lock_free, "a process-shared counter must be lock-free");
  Counter* counter_ = nullptr;
};

// What travels through a pipe. Parent and workers are the same program (fork without
// exec), so the struct's layout is the same on both ends.
enum class RecordKind : std::uint32_t { result, error, out_of_memory };

struct WireRecord {
  std::uint64_t index = 0;
  RecordKind kind = RecordKind::result;
  std::uint32_t message_bytes = 0;  // this many bytes of text follow the record
  std::int64_t rows = 0;
  std::int64_t malformed = 0;
  double min = 0, max = 0, mean = 0, stddev = 0;
};

constexpr std::size_t kMaxMessageBytes = 2000;

// Writes all of it or ends the worker: with no parent to read, there is nothing to do.
inline void write_or_exit(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) ::_exit(3);
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}

inline void send_result(int fd, std::size_t index, const FileStats& s) {
  const WireRecord r{index,   RecordKind::result, 0, s.rows, s.malformed, s.min, s.max, s.mean,
                     s.stddev};
  write_or_exit(fd, reinterpret_cast<const char*>(&r), sizeof r);
}

inline void send_failure(int fd, std::size_t index, RecordKind kind, std::string message) {
  if (message.size() > kMaxMessageBytes) message.resize(kMaxMessageBytes);
  WireRecord r;
  r.index = index;
  r.kind = kind;
  r.message_bytes = static_cast<std::uint32_t>(message.size());
  std::string bytes(reinterpret_cast<const char*>(&r), sizeof r);
  bytes += message;
  write_or_exit(fd, bytes.data(), bytes.size());
}

// The body of a worker process. It never returns: returning would run the rest of the
// parent's program a second time inside the child.
template <class NextIndex>
[[noreturn]] void worker_main(int fd, NextIndex next_index,
                              const std::function<FileStats(std::size_t)>& compute) noexcept {
  std::size_t index = 0;
  try {
    for (;;) {
      const std::optional<std::size_t> next = next_index();
      if (!next) break;
      index = *next;
      send_result(fd, index, compute(index));
    }
  } catch (const std::bad_alloc&) {
    send_failure(fd, index, RecordKind::out_of_memory, "out of memory in a worker process");
    ::_exit(1);
  } catch (const std::exception& e) {
    send_failure(fd, index, RecordKind::error, e.what());
    ::_exit(1);
  } catch (...) {
    send_failure(fd, index, RecordKind::error, "unknown exception in a worker process");
    ::_exit(1);
  }
  ::_exit(0);
}

inline std::string describe_wait_status(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return "was killed by signal " + std::to_string(sig) + " (" + ::strsignal(sig) + ")";
  }
  if (WIFEXITED(status)) return "exited with code " + std::to_string(WEXITSTATUS(status));
  return "ended abnormally";
}

// The forked workers of one call: their pids and the read ends of their pipes. The
// destructor kills and reaps whatever is still running, so an exception in the parent
// leaves neither runaway workers nor zombies behind.
class WorkerSet {
 public:
  WorkerSet() = default;
  WorkerSet(const WorkerSet&) = delete;
  WorkerSet& operator=(const WorkerSet&) = delete;
  ~WorkerSet() {
    for (Worker& w : workers_) {
      if (w.read_fd >= 0) ::close(w.read_fd);
      if (w.pid > 0) {
        ::kill(w.pid, SIGKILL);
        int status;
        while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
        }
      }
    }
  }

  // Forks one worker running `body(write_fd)`; `body` must not return.
  template <class Body>
  void start(Body body) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw_system_error("pipe failed");
    std::fflush(nullptr);  // or the child would flush the parent's buffered output again
    const pid_t pid = ::fork();
    if (pid < 0) {
      ::close(fds[0]);
      ::close(fds[1]);
      throw_system_error("fork failed (process limit reached?)");
    }
    if (pid == 0) {
      ::close(fds[0]);
      for (const Worker& w : workers_) ::close(w.read_fd);  // the siblings' pipes
      body(fds[1]);
    }
    ::close(fds[1]);  // the parent only reads; EOF then means the worker is done
    workers_.push_back({pid, fds[0]});
  }

  // Reads every worker's records until all pipes are closed; `on_record` gets each
  // complete record with its message.
  template <class OnRecord>
  void read_all(OnRecord on_record) {
    std::vector<pollfd> polled;
    for (const Worker& w : workers_) polled.push_back({w.read_fd, POLLIN, 0});
    std::vector<std::string> pending(workers_.size());
    std::size_t open = workers_.size();
    char chunk[1 << 16];
    while (open > 0) {
      if (::poll(polled.data(), polled.size(), -1) < 0) {
        if (errno == EINTR) continue;
        throw_system_error("poll failed");
      }
      for (std::size_t k = 0; k < polled.size(); ++k) {
        if (polled[k].fd < 0 || polled[k].revents == 0) continue;
        const ssize_t n = ::read(polled[k].fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw_system_error("read from a worker's pipe failed");
        if (n == 0) {  // the worker closed its end: it has exited
          ::close(workers_[k].read_fd);
          workers_[k].read_fd = polled[k].fd = -1;
          --open;
          continue;
        }
        pending[k].append(chunk, static_cast<std::size_t>(n));
        take_complete_records(pending[k], on_record);
      }
    }
  }

  // Waits for every worker; throws if one did not exit cleanly.
  void wait_all() {
    std::string failures;
    for (std::size_t k = 0; k < workers_.size(); ++k) {
      int status = 0;
      while (::waitpid(workers_[k].pid, &status, 0) < 0) {
        if (errno != EINTR) throw_system_error("waitpid failed");
      }
      const pid_t pid = workers_[k].pid;
      workers_[k].pid = -1;
      if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
        failures += (failures.empty() ? "" : "; ") + std::string("worker ") + std::to_string(k) +
                    " (pid " + std::to_string(pid) + ") " + describe_wait_status(status);
      }
    }
    if (!failures.empty()) throw std::runtime_error("a worker process died: " + failures);
  }

 private:
  struct Worker {
    pid_t pid = -1;
    int read_fd = -1;
  };

  template <class OnRecord>
  static void take_complete_records(std::string& pending, OnRecord& on_record) {
    std::size_t pos = 0;
    while (pending.size() - pos >= sizeof(WireRecord)) {
      WireRecord r;
      std::memcpy(&r, pending.data() + pos, sizeof r);
      if (pending.size() - pos - sizeof r < r.message_bytes) break;
      on_record(r, pending.substr(pos + sizeof r, r.message_bytes));
      pos += sizeof r + r.message_bytes;
    }
    pending.erase(0, pos);
  }

  std::vector<Worker> workers_;
};

}  // namespace detail

// Runs compute(i) for i in [0, n) in min(workers, n) worker processes. Result i is
// compute(i) with only the numbers filled in (FileStats::file is left to the caller).
inline std::vector<FileStats> run_in_worker_processes(
    std::size_t n, int workers, Distribution distribution,
    const std::function<FileStats(std::size_t)>& compute) {
  using namespace detail;
  if (workers < 1) throw std::invalid_argument("workers must be >= 1");
  const std::size_t count = std::min<std::size_t>(static_cast<std::size_t>(workers), n);
  std::vector<FileStats> results(n);
  if (n == 0) return results;

  std::optional<SharedCounter> queue;
  if (distribution == Distribution::shared_queue) queue.emplace();
  WorkerSet set;
  for (std::size_t w = 0; w < count; ++w) {
    // Static: worker w owns [n*w/count, n*(w+1)/count), sizes differing by one at most.
    std::size_t next_in_block = n * w / count;
    const std::size_t block_end = n * (w + 1) / count;
    SharedCounter* shared = queue ? &*queue : nullptr;
    auto next_index = [=]() mutable -> std::optional<std::size_t> {
      const std::size_t i = shared ? shared->claim_next() : next_in_block++;
      if (i >= (shared ? n : block_end)) return std::nullopt;
      return i;
    };
    set.start([&](int fd) { worker_main(fd, next_index, compute); });
  }

  std::vector<bool> received(n, false);
  set.read_all([&](const WireRecord& r, const std::string& message) {
    if (r.index >= n || received[r.index]) {
      throw std::runtime_error("a worker process sent a corrupt result record");
    }
    if (r.kind == RecordKind::out_of_memory) throw std::bad_alloc();
    if (r.kind == RecordKind::error) {
      throw std::runtime_error("a worker process failed on file #" + std::to_string(r.index) +
                               ": " + message);
    }
    received[r.index] = true;
    FileStats& s = results[r.index];
    s.rows = r.rows;
    s.malformed = r.malformed;
    s.min = r.min;
    s.max = r.max;
    s.mean = r.mean;
    s.stddev = r.stddev;
  });
  set.wait_all();
  for (std::size_t i = 0; i < n; ++i) {
    if (!received[i]) {
      throw std::runtime_error("no result came back for file #" + std::to_string(i) +
                               " although every worker exited cleanly");
    }
  }
  return results;
}

}  // namespace lab01::reference
