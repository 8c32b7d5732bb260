#include <catch2/catch.hpp>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "scratch_dir.hpp"
#include "worker_checks.hpp"

namespace fs = std::filesystem;
using lab01::checks::WorkerKiller;

namespace {
int wait_status(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}
}  // namespace

TEST_CASE("the worker killer kills the FIFO's reader, not a sibling holding its write end",
          "[lab01][worker_dies]") {
  parlab::testing::ScratchDir dir;
  WorkerKiller killer(dir.path() / "fifo");
  const fs::path fifo = killer.path();
  // The sibling forked first (the lower pid, read first from /proc) holds a write end, as
  // a worker forked after the watcher opened its own write end inherits one. Its blocking
  // open pairs with the reader's, before the watcher's next look.
  const pid_t writer = ::fork();
  REQUIRE(writer >= 0);
  if (writer == 0) {
    if (::open(fifo.c_str(), O_WRONLY) < 0) ::_exit(3);
    ::pause();
    ::_exit(0);
  }
  const pid_t reader = ::fork();
  REQUIRE(reader >= 0);
  if (reader == 0) {
    const int fd = ::open(fifo.c_str(), O_RDONLY);
    char byte;
    while (fd >= 0 && ::read(fd, &byte, 1) > 0) {
    }
    ::_exit(0);
  }
  const int reader_status = wait_status(reader);
  CHECK(WIFSIGNALED(reader_status));
  CHECK(killer.killed());
  CHECK_FALSE(killer.read_in_parent());
  // The writer lived: only our own kill ends it.
  int writer_status = 0;
  CHECK(::waitpid(writer, &writer_status, WNOHANG) == 0);
  ::kill(writer, SIGKILL);
  wait_status(writer);
}
