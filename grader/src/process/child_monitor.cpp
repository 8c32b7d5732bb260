#include "process/child_monitor.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cmath>
#include <system_error>

#include "process/process_group.hpp"
#include "process/stuck_tree.hpp"

namespace parlab::grader::process {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kStatusTextCap = 4096;
// Without a pidfd, how often to look for the child's exit.
constexpr auto kPollTick = std::chrono::milliseconds(50);
// How often the process tree is read for a deadlock (stuck_tree.hpp); the first read
// comes this long after the start.
constexpr auto kStuckSampleEvery = std::chrono::milliseconds(1000);
// After the exit, how long a pipe may stay open (a process that left the group
// can hold it) before the grader stops reading.
constexpr auto kDrainGrace = std::chrono::milliseconds(500);
constexpr auto kReapPatience = std::chrono::milliseconds(2000);
// Bounded so a flooding child cannot keep the loop from checking the clock.
constexpr int kReadsPerWakeup = 16;

double seconds_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

// A pollable descriptor that becomes readable when the process exits, so poll()
// wakes up at once instead of on the next tick. -1 on kernels before 5.3.
int open_pidfd(pid_t pid) {
#ifdef SYS_pidfd_open
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
  (void)pid;
  return -1;
#endif
}

class Stream {
 public:
  Stream(UniqueFd fd, OutputCapture* capture, std::string* text)
      : fd_(std::move(fd)), capture_(capture), text_(text) {
    if (fd_.valid()) set_nonblocking(fd_.get());
  }
  bool open() const { return fd_.valid(); }
  int fd() const { return fd_.get(); }

  // Reads what is there now; closes the stream at end-of-file.
  void read_available() {
    std::array<char, 64 * 1024> buffer;
    for (int i = 0; i < kReadsPerWakeup && fd_.valid(); ++i) {
      ssize_t n = ::read(fd_.get(), buffer.data(), buffer.size());
      if (n > 0) {
        keep(buffer.data(), static_cast<std::size_t>(n));
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else if (n < 0 && errno == EAGAIN) {
        return;
      } else {
        fd_.reset();  // end-of-file, or an error that will not go away
      }
    }
  }

 private:
  void keep(const char* data, std::size_t size) {
    if (capture_ != nullptr) capture_->append(data, size);
    if (text_ != nullptr && text_->size() < kStatusTextCap)
      text_->append(data, std::min(size, kStatusTextCap - text_->size()));
  }

  UniqueFd fd_;
  OutputCapture* capture_;
  std::string* text_;
};

// Waits up to `timeout` for any open stream (or the pidfd) to have something.
void wait_for_activity(std::array<Stream*, 4>& streams, const UniqueFd& pidfd,
                       std::chrono::milliseconds timeout) {
  std::array<pollfd, 5> fds{};
  std::array<Stream*, 5> owner{};
  nfds_t count = 0;
  if (pidfd.valid()) fds[count++] = pollfd{pidfd.get(), POLLIN, 0};
  for (Stream* stream : streams) {
    if (!stream->open()) continue;
    owner[count] = stream;
    fds[count++] = pollfd{stream->fd(), POLLIN, 0};
  }
  int ready = ::poll(fds.data(), count, static_cast<int>(timeout.count()));
  if (ready < 0 && errno != EINTR) throw std::system_error(errno, std::system_category(), "poll");
  for (nfds_t i = 0; i < count; ++i)
    if (owner[i] != nullptr && fds[i].revents != 0) owner[i]->read_available();
}

bool any_open(const std::array<Stream*, 4>& streams) {
  for (const Stream* stream : streams)
    if (stream->open()) return true;
  return false;
}

// True once the child has exited. It stays a zombie (WNOWAIT), which keeps its
// pid, and so its process group id, from being reused while we kill the group.
bool has_exited(pid_t pid) {
  siginfo_t info{};
  for (;;) {
    info.si_pid = 0;
    if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0)
      return info.si_pid == pid;
    if (errno != EINTR) throw std::system_error(errno, std::system_category(), "waitid");
  }
}

double seconds(const timeval& t) {
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
}

// Returns the wait status; stores the CPU time it used in *cpu_seconds when given.
int reap(pid_t pid, double* cpu_seconds = nullptr) {
  int status = 0;
  rusage usage{};
  while (::wait4(pid, &status, 0, &usage) < 0) {
    if (errno != EINTR) throw std::system_error(errno, std::system_category(), "wait4");
  }
  if (cpu_seconds != nullptr) *cpu_seconds = seconds(usage.ru_utime) + seconds(usage.ru_stime);
  return status;
}

std::chrono::milliseconds until(Clock::time_point deadline, Clock::time_point now) {
  auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - now);
  return std::max(left, std::chrono::milliseconds(1));
}

}  // namespace

ChildEnd monitor_child(MonitoredChild child, const MonitorLimits& limits) {
  ChildEnd end;
  end.stdout_capture = OutputCapture(limits.output_bytes);
  end.stderr_capture = OutputCapture(limits.output_bytes);
  Stream out(std::move(child.stdout_read), &end.stdout_capture, nullptr);
  Stream err(std::move(child.stderr_read), &end.stderr_capture, nullptr);
  Stream status(std::move(child.status_read), nullptr, &end.status_text);
  end.report_capture = OutputCapture(limits.report_bytes);
  Stream report(std::move(child.report_read), &end.report_capture, nullptr);
  std::array<Stream*, 4> streams = {&out, &err, &status, &report};
  UniqueFd pidfd(open_pidfd(child.pid));

  const auto deadline = child.started + std::chrono::duration_cast<Clock::duration>(
                                            std::chrono::duration<double>(limits.wall_seconds));
  StuckWatch stuck(child.pid, kStuckSampleEvery,
                   std::chrono::duration_cast<Clock::duration>(
                       std::chrono::duration<double>(limits.deadlock_seconds)));
  auto kill_for = [&](KillCause cause) {
    if (cause == KillCause::timeout && end.stuck_diagnosis.empty()) {
      end.stuck_diagnosis = describe_stuck_tree(read_process_tree(child.pid));
    }
    kill_process_group(child.pid);  // not reaped yet, so the pid is still ours
    end.killed_for = cause;
    end.killed_after_seconds = seconds_between(child.started, Clock::now());
  };

  auto next_tick = child.started + limits.tick;
  try {
    for (;;) {
      auto now = Clock::now();
      std::chrono::milliseconds timeout = kPollTick;
      if (end.killed_for == KillCause::none && pidfd.valid())
        timeout = std::min<std::chrono::milliseconds>(kStuckSampleEvery, until(deadline, now));
      else if (end.killed_for == KillCause::none)
        timeout = std::min(kPollTick, until(deadline, now));
      if (limits.on_tick) timeout = std::min(timeout, limits.tick);
      wait_for_activity(streams, pidfd, timeout);
      if (limits.on_tick && Clock::now() >= next_tick) {
        limits.on_tick();
        next_tick = Clock::now() + limits.tick;
      }

      std::uint64_t written = end.stdout_capture.total_bytes() + end.stderr_capture.total_bytes();
      if (end.killed_for == KillCause::none && written > limits.output_kill_bytes)
        kill_for(KillCause::output_limit);
      if (end.killed_for == KillCause::none && end.report_capture.total_bytes() > limits.report_bytes)
        kill_for(KillCause::report_limit);
      if (has_exited(child.pid)) break;
      if (end.killed_for == KillCause::none && Clock::now() >= deadline)
        kill_for(KillCause::timeout);
      if (end.killed_for == KillCause::none && limits.deadlock_seconds > 0) {
        if (auto deadlock = stuck.check(Clock::now())) {
          end.stuck_diagnosis = *deadlock;
          end.stopped_as_deadlock = true;
          kill_for(KillCause::timeout);
        }
      }
    }
  } catch (...) {
    kill_process_group(child.pid);
    reap(child.pid);
    throw;
  }
  end.wall_seconds = seconds_between(child.started, Clock::now());

  // Stray grandchildren must not outlive the run. The leader is still a zombie,
  // so its process group id cannot have been handed to anyone else yet.
  kill_process_group(child.pid);
  end.wait_status = reap(child.pid, &end.cpu_seconds);
  reap_process_group(child.pid, kReapPatience);

  // Whatever is still in the pipes; the writers are dead or about to be.
  auto give_up = Clock::now() + kDrainGrace;
  while (any_open(streams)) {
    auto now = Clock::now();
    if (now >= give_up) break;
    wait_for_activity(streams, UniqueFd(), until(give_up, now));
  }
  return end;
}

}  // namespace parlab::grader::process
