// A run's key system calls are refused: add_key, request_key and keyctl fail with
// ENOSYS once the filter is in, everything else works.
#include <linux/keyctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>

#include "process/key_store_filter.hpp"
#include "process/sandboxed_runner.hpp"
#include "process_test_support.hpp"

using namespace parlab::grader;
using namespace parlab::grader::process;
using namespace parlab::grader::test;

TEST_CASE("The key store is closed to a filtered process", "[process][leftovers][keys]") {
  const pid_t pid = ::fork();
  if (pid == 0) {
    // Not root, a filter needs no_new_privs (a run's child installs it as root).
    if (::geteuid() != 0) ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    if (!close_key_store()) ::_exit(errno == EINVAL || errno == ENOSYS ? 77 : 1);
    if (::syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_USER_KEYRING, 0) != -1 || errno != ENOSYS) ::_exit(2);
    if (::syscall(SYS_add_key, "user", "k", "v", 1, KEY_SPEC_USER_KEYRING) != -1 || errno != ENOSYS) ::_exit(3);
    if (::syscall(SYS_request_key, "user", "k", nullptr, 0) != -1 || errno != ENOSYS) ::_exit(4);
    ::_exit(::syscall(SYS_getpid) == ::getpid() ? 0 : 5);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  if (WEXITSTATUS(status) == 77) {
    WARN("no seccomp filters here");
    return;
  }
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("A run of a root grader cannot use the key store, at every sandbox level",
          "[process][leftovers][keys]") {
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
