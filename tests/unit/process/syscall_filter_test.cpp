// The seccomp filters: a forked child that installs the fallback filter may not open
// internet or packet sockets, set up io_uring or touch a kernel keyring, and keeps Unix
// sockets, pipes and everything else; with the key store's filter only the keyrings are
// refused; a root grader's runs get it at every sandbox level.
#include <errno.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "process/sandboxed_runner.hpp"
#include "process/syscall_filter.hpp"
#include "process_test_support.hpp"

using namespace parlab::grader;
using namespace parlab::grader::process;
using namespace parlab::grader::test;

namespace {

// Runs `probe` in a child with the filter installed; its exit code, or -1.
template <typename Probe>
int in_filtered_child(Probe probe, const SyscallFilter* filter = fallback_syscall_filter()) {
  REQUIRE(filter != nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || !install_syscall_filter(filter->program)) ::_exit(99);
    ::_exit(probe());
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int refused_with(long result, int expected_errno) { return result == -1 && errno == expected_errno ? 0 : 1; }

}  // namespace

TEST_CASE("The fallback filter is built", "[process][seccomp]") {
  CHECK_FALSE(fallback_filter_problem().has_value());
  REQUIRE(fallback_syscall_filter() != nullptr);
  CHECK(fallback_syscall_filter()->program.len > 4);
}

TEST_CASE("Internet and packet sockets are refused, Unix sockets kept", "[process][seccomp]") {
  CHECK(in_filtered_child([] { return refused_with(::socket(AF_INET, SOCK_STREAM, 0), EACCES); }) == 0);
  CHECK(in_filtered_child([] { return refused_with(::socket(AF_INET6, SOCK_DGRAM, 0), EACCES); }) == 0);
  CHECK(in_filtered_child([] { return refused_with(::socket(AF_PACKET, SOCK_RAW, 0), EACCES); }) == 0);
  CHECK(in_filtered_child([] {
          int pair[2];
          return ::socketpair(AF_UNIX, SOCK_STREAM, 0, pair) == 0 && ::socket(AF_UNIX, SOCK_DGRAM, 0) >= 0 ? 0 : 1;
        }) == 0);
}

TEST_CASE("Keyrings and io_uring are refused", "[process][seccomp]") {
  for (const SyscallFilter* filter : {fallback_syscall_filter(), key_store_filter()}) {
    REQUIRE(filter != nullptr);
    CHECK(in_filtered_child([] { return refused_with(::syscall(SYS_add_key, "user", "k", "v", 1, -4), ENOSYS); },
                            filter) == 0);
    CHECK(in_filtered_child([] { return refused_with(::syscall(SYS_keyctl, 0, -4, 0), ENOSYS); }, filter) == 0);
    CHECK(in_filtered_child([] { return refused_with(::syscall(SYS_request_key, "user", "k", nullptr, 0), ENOSYS); },
                            filter) == 0);
  }
  // The key store's filter alone leaves the network to bubblewrap's namespace.
  CHECK(in_filtered_child([] { return ::socket(AF_INET, SOCK_STREAM, 0) >= 0 ? 0 : 1; }, key_store_filter()) == 0);
  CHECK(in_filtered_child([] { return refused_with(::syscall(SYS_io_uring_setup, 1, nullptr), EPERM); }) == 0);
  // Everything else goes on: a pipe, a fork.
  CHECK(in_filtered_child([] {
          int p[2];
          return ::pipe(p) == 0 && ::getpid() > 0 ? 0 : 1;
        }) == 0);
}

TEST_CASE("A run of a root grader cannot use the key store, at every sandbox level", "[process][seccomp]") {
  if (::geteuid() != 0) {
    WARN("not running as root: a non-root grader's runs are its own user");
    return;
  }
  SandboxedRunner runner(options_with(PARLAB_EACH_SANDBOX_MODE()));
  ScratchDir scratch;
  RunResult result = runner.run(fake_request("use_keys", scratch));
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.stdout_text, Catch::StartsWith("keys: refused"));
}
