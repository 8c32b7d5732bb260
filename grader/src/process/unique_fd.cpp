#include "process/unique_fd.hpp"

#include <fcntl.h>
#include <sys/socket.h>

#include <cerrno>
#include <system_error>

namespace parlab::grader::process {
namespace {

[[noreturn]] void throw_errno(const char* what) {
  throw std::system_error(errno, std::system_category(), what);
}

// If the grader was started with stdin/stdout/stderr closed, pipe2() can hand out
// 0..2; move such an end out of the way before the child's dup2() calls use them.
UniqueFd at_least_three(int fd) {
  if (fd >= 3) return UniqueFd(fd);
  int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  int saved = errno;
  ::close(fd);
  if (moved < 0) {
    errno = saved;
    throw_errno("fcntl(F_DUPFD_CLOEXEC)");
  }
  return UniqueFd(moved);
}

}  // namespace

Pipe make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw_errno("pipe2");
  Pipe pipe;
  pipe.read_end = UniqueFd(fds[0]);
  pipe.write_end = UniqueFd(fds[1]);
  pipe.read_end = at_least_three(pipe.read_end.release());
  pipe.write_end = at_least_three(pipe.write_end.release());
  return pipe;
}

Pipe make_record_channel() {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds) != 0) throw_errno("socketpair");
  Pipe channel;
  channel.read_end = at_least_three(fds[0]);
  channel.write_end = at_least_three(fds[1]);
  // One way: nothing is ever sent to the writer, and the reader's end sends nothing.
  if (::shutdown(channel.read_end.get(), SHUT_WR) != 0 || ::shutdown(channel.write_end.get(), SHUT_RD) != 0)
    throw_errno("shutdown");
  return channel;
}

void set_nonblocking(int fd) {
  int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) throw_errno("fcntl(O_NONBLOCK)");
}

}  // namespace parlab::grader::process
