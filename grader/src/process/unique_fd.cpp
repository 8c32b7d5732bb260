#include "process/unique_fd.hpp"

#include <fcntl.h>

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

void set_nonblocking(int fd) {
  int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) throw_errno("fcntl(O_NONBLOCK)");
}

}  // namespace parlab::grader::process
