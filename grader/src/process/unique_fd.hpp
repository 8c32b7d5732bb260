#pragma once
// An owned file descriptor, closed exactly once. The runner juggles several pipe
// ends per child; owning them keeps every error path from leaking one (a leaked
// write end would keep a reader from ever seeing end-of-file).
#include <unistd.h>

#include <utility>

namespace parlab::grader::process {

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { reset(); }

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  int release() { return std::exchange(fd_, -1); }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

// A pipe whose ends are close-on-exec and numbered 3 or above, so a concurrent
// spawn on another thread never inherits them and they never collide with the
// child's stdin/stdout/stderr. Throws std::system_error.
struct Pipe {
  UniqueFd read_end;
  UniqueFd write_end;
};
Pipe make_pipe();

// A one-way channel of whole records: a SOCK_SEQPACKET pair whose `write_end` can only
// send and `read_end` only receive. Unlike a pipe, the writer cannot reopen it for
// reading through /proc/self/fd (a socket cannot be opened), so what it sent cannot be
// read back out of the channel, and each send arrives whole or not at all.
Pipe make_record_channel();

// Makes reads return EAGAIN instead of blocking. Throws std::system_error.
void set_nonblocking(int fd);

}  // namespace parlab::grader::process
