#include "process/uid_keyrings.hpp"

#include <fcntl.h>
#include <linux/keyctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace parlab::grader::process {
namespace {

long keyctl(int operation, unsigned long a = 0, unsigned long b = 0) {
  return ::syscall(SYS_keyctl, operation, a, b, 0UL, 0UL);
}

unsigned long spec(long id) { return static_cast<unsigned long>(id); }

// A user keyring's permissions as the kernel makes it: its user may do everything
// (a run may have taken write away; it fails where the run took setattr away too).
constexpr unsigned long kUserKeyringPerm = 0x1f3f0000;

bool remove_key(long serial) {
  return keyctl(KEYCTL_INVALIDATE, spec(serial)) == 0 || keyctl(KEYCTL_REVOKE, spec(serial)) == 0;
}

void empty_keyring(long id) {
  keyctl(KEYCTL_SETPERM, spec(id), kUserKeyringPerm);
  keyctl(KEYCTL_CLEAR, spec(id));
}

// The uid's keys in /proc/keys, read without allocating (this runs after fork).
struct OwnKeys {
  static constexpr int kMax = 2048;  // the default quota is 200 keys per uid
  long serial[kMax];
  bool keyring[kMax];
  int count = 0;
};

// "serial flags usage timeout perm uid gid type description": fields 0, 5 and 7.
void note_line(const char* line, const char* end, uid_t uid, OwnKeys& keys) {
  const char* field[8] = {};
  int n = 0;
  for (const char* p = line; p < end && n < 8;) {
    while (p < end && *p == ' ') ++p;
    if (p == end) break;
    field[n++] = p;
    while (p < end && *p != ' ') ++p;
  }
  if (n < 8 || keys.count >= OwnKeys::kMax) return;
  char* stop = nullptr;
  const unsigned long owner = std::strtoul(field[5], &stop, 10);
  if (stop == field[5] || owner != uid) return;
  keys.serial[keys.count] = static_cast<long>(std::strtoul(field[0], nullptr, 16));
  keys.keyring[keys.count] = std::strncmp(field[7], "keyring ", 8) == 0;
  ++keys.count;
}

void list_own_keys(uid_t uid, OwnKeys& keys) {
  const int fd = ::open("/proc/keys", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  char buffer[32768];
  std::size_t held = 0;
  for (;;) {
    const ssize_t got = ::read(fd, buffer + held, sizeof buffer - held - 1);
    if (got <= 0) break;
    held += static_cast<std::size_t>(got);
    char* start = buffer;
    while (char* newline = static_cast<char*>(std::memchr(start, '\n', held - (start - buffer)))) {
      note_line(start, newline, uid, keys);
      start = newline + 1;
    }
    held -= static_cast<std::size_t>(start - buffer);
    std::memmove(buffer, start, held);
    if (held == sizeof buffer - 1) held = 0;  // a line longer than the buffer: skipped
  }
  ::close(fd);
}

}  // namespace

bool join_own_session_keyring() noexcept {
  if (keyctl(KEYCTL_JOIN_SESSION_KEYRING, 0) >= 0) return true;
  return errno == ENOSYS || errno == EPERM;
}

int clear_own_keys() noexcept {
  // Linked into this helper's process keyring, the uid's keyrings' contents are
  // "possessed" here: the possessor's permissions (a new key's only useful ones) apply.
  const long user = keyctl(KEYCTL_GET_KEYRING_ID, spec(KEY_SPEC_USER_KEYRING), 1);
  const long user_session = keyctl(KEYCTL_GET_KEYRING_ID, spec(KEY_SPEC_USER_SESSION_KEYRING), 1);
  const long own = keyctl(KEYCTL_GET_KEYRING_ID, spec(KEY_SPEC_PROCESS_KEYRING), 1);
  if (user >= 0) keyctl(KEYCTL_LINK, spec(user), spec(KEY_SPEC_PROCESS_KEYRING));
  if (user_session >= 0) keyctl(KEYCTL_LINK, spec(user_session), spec(KEY_SPEC_PROCESS_KEYRING));
  const long persistent =
      keyctl(KEYCTL_GET_PERSISTENT, static_cast<uid_t>(-1), spec(KEY_SPEC_PROCESS_KEYRING));

  OwnKeys keys;  // on the helper's stack
  list_own_keys(::getuid(), keys);
  int removed = 0;
  for (int i = 0; i < keys.count; ++i)  // keys first, while their keyrings still link them
    if (!keys.keyring[i] && remove_key(keys.serial[i])) ++removed;
  for (long id : {user, user_session, persistent})
    if (id >= 0) empty_keyring(id);
  // Other keyrings of the uid (named ones, dead runs' session keyrings) and the
  // persistent one go; @u and @us stay, empty, as the kernel keeps them per uid.
  for (int i = 0; i < keys.count; ++i) {
    const long serial = keys.serial[i];
    if (keys.keyring[i] && serial != user && serial != user_session && serial != own && remove_key(serial) &&
        serial != persistent)  // made by this helper when missing: not counted
      ++removed;
  }
  return removed;
}

int clear_keys_of(uid_t uid, gid_t gid) {
  const pid_t helper = ::fork();
  if (helper < 0) return -1;
  if (helper == 0) {
    if (::syscall(SYS_setgroups, 0, nullptr) != 0 || ::syscall(SYS_setresgid, gid, gid, gid) != 0 ||
        ::syscall(SYS_setresuid, uid, uid, uid) != 0)
      ::_exit(255);
    const int removed = clear_own_keys();
    ::_exit(removed > 250 ? 250 : removed);
  }
  int status = 0;
  while (::waitpid(helper, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) == 255) return -1;
  return WEXITSTATUS(status);
}

}  // namespace parlab::grader::process
