// A uid's kernel keys are swept: what a run stored in its user keyring, its
// persistent keyring or a keyring of its own is gone for the next run of that uid.
// Root only (only root can act as another uid), and where the kernel offers keyrings.
#include <linux/keyctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstring>
#include <functional>
#include <string>

#include "process/uid_keyrings.hpp"

using namespace parlab::grader::process;

namespace {

constexpr uid_t kKeysUid = 61102;  // outside the default pool; no account uses it

long keyctl(int operation, unsigned long a = 0, unsigned long b = 0, unsigned long c = 0) {
  return ::syscall(SYS_keyctl, operation, a, b, c, 0UL);
}
unsigned long spec(long id) { return static_cast<unsigned long>(id); }

long add_key(const char* description, const char* value, long keyring) {
  return ::syscall(SYS_add_key, "user", description, value, std::strlen(value), keyring);
}

std::string keyrings_missing() {
  if (::geteuid() != 0) return "not running as root: no other uid to act as";
  if (keyctl(KEYCTL_GET_KEYRING_ID, spec(KEY_SPEC_USER_KEYRING), 0) < 0 && (errno == ENOSYS || errno == EPERM))
    return std::string("no kernel keyrings here: ") + std::strerror(errno);
  return "";
}

// Runs `body` in a child that took `uid`; its result is the child's exit code.
int as_uid(uid_t uid, const std::function<int()>& body) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::syscall(SYS_setgroups, 0, nullptr) != 0 || ::syscall(SYS_setresgid, uid, uid, uid) != 0 ||
        ::syscall(SYS_setresuid, uid, uid, uid) != 0)
      ::_exit(100);
    ::_exit(body());
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 101;
}

// The bytes a keyring lists (4 per key linked in it); -1 when it cannot be read.
long keyring_size(long id) {
  char buffer[256];
  return keyctl(KEYCTL_READ, spec(id), reinterpret_cast<unsigned long>(buffer), sizeof buffer);
}

long persistent_keyring() {
  return keyctl(KEYCTL_GET_PERSISTENT, static_cast<uid_t>(-1), spec(KEY_SPEC_PROCESS_KEYRING));
}

}  // namespace

TEST_CASE("A uid's keys are gone after the sweep", "[process][leftovers][keys]") {
  if (const std::string missing = keyrings_missing(); !missing.empty()) {
    WARN(missing);
    return;
  }
  // A run storing answers: in @u, in its persistent keyring, and in a named keyring
  // linked into @u whose key only a possessor may use.
  REQUIRE(as_uid(kKeysUid, [] {
            if (add_key("parlab-answer", "42", KEY_SPEC_USER_KEYRING) < 0) return 1;
            const long persistent = persistent_keyring();
            if (persistent < 0 || add_key("parlab-persistent", "43", persistent) < 0) return 2;
            // Made in the process keyring (possessed), then linked into @u, where it stays.
            const long stash = ::syscall(SYS_add_key, "keyring", "stash", nullptr, 0, KEY_SPEC_PROCESS_KEYRING);
            if (stash < 0) return 3;
            const long hidden = add_key("parlab-hidden", "44", stash);
            if (hidden < 0 || keyctl(KEYCTL_SETPERM, spec(hidden), 0x3f000000) != 0) return 4;
            if (keyctl(KEYCTL_LINK, spec(stash), spec(KEY_SPEC_USER_KEYRING)) != 0) return 5;
            return 0;
          }) == 0);

  REQUIRE(as_uid(kKeysUid, [] { return keyring_size(KEY_SPEC_USER_KEYRING) > 0 ? 0 : 1; }) == 0);

  CHECK(clear_keys_of(kKeysUid, kKeysUid) >= 2);

  // The next run of the uid finds nothing, and may still use its keyrings.
  CHECK(as_uid(kKeysUid, [] {
          if (keyring_size(KEY_SPEC_USER_KEYRING) != 0) return 1;
          const long persistent = persistent_keyring();
          if (persistent >= 0 && keyring_size(persistent) != 0) return 2;
          if (keyctl(KEYCTL_SEARCH, spec(KEY_SPEC_USER_KEYRING), reinterpret_cast<unsigned long>("user"),
                     reinterpret_cast<unsigned long>("parlab-hidden")) >= 0)
            return 3;
          if (add_key("parlab-again", "1", KEY_SPEC_USER_KEYRING) < 0) return 4;
          return 0;
        }) == 0);
  clear_keys_of(kKeysUid, kKeysUid);
}

TEST_CASE("A run's session keyring is its own, not the grader's", "[process][leftovers][keys]") {
  if (const std::string missing = keyrings_missing(); !missing.empty()) {
    WARN(missing);
    return;
  }
  const long graders = keyctl(KEYCTL_GET_KEYRING_ID, spec(KEY_SPEC_SESSION_KEYRING), 1);
  REQUIRE(graders >= 0);
  CHECK(as_uid(kKeysUid, [graders] {
          if (!join_own_session_keyring()) return 1;
          const long own = keyctl(KEYCTL_GET_KEYRING_ID, spec(KEY_SPEC_SESSION_KEYRING), 0);
          return own >= 0 && own != graders ? 0 : 2;
        }) == 0);
  clear_keys_of(kKeysUid, kKeysUid);
}
