// Fake submission (tests/fakes/sandbox): no lab code. Each run looks for answers an
// earlier run kept in the kernel's key store (its uid's user keyring @u, its
// persistent keyring, its session keyring), says "KEYRING: found" or
// "KEYRING: empty" (with ", store refused" where the kernel refused it), then keeps
// answers there for the next run and fails.
#include <linux/keyctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "api.hpp"

namespace lab01 {
namespace {

const char kAnswers[] = "parlab-keyring-answers";

long persistent_keyring() {
  return ::syscall(SYS_keyctl, KEYCTL_GET_PERSISTENT, static_cast<uid_t>(-1), KEY_SPEC_PROCESS_KEYRING);
}

bool found_in(long keyring) {
  return keyring != -1 && ::syscall(SYS_keyctl, KEYCTL_SEARCH, keyring, "user", kAnswers, 0) >= 0;
}

bool keep_in(long keyring) {
  return keyring != -1 && ::syscall(SYS_add_key, "user", kAnswers, "42 17 3", 7, keyring) >= 0;
}

}  // namespace

FileStats compute_file_stats(const std::string&) {
  const long persistent = persistent_keyring();
  const bool found = found_in(KEY_SPEC_USER_KEYRING) || found_in(KEY_SPEC_USER_SESSION_KEYRING) ||
                     found_in(persistent) || found_in(KEY_SPEC_SESSION_KEYRING);
  bool kept = keep_in(KEY_SPEC_USER_KEYRING);
  kept = keep_in(persistent) || kept;
  kept = keep_in(KEY_SPEC_SESSION_KEYRING) || kept;
  throw std::runtime_error(std::string(found ? "KEYRING: found" : "KEYRING: empty") +
                           (kept ? "" : ", store refused"));
}

std::vector<FileStats> process_serial(const std::vector<std::string>& paths) {
  std::vector<FileStats> results;
  for (const std::string& path : paths) results.push_back(compute_file_stats(path));
  return results;
}

std::vector<FileStats> process_parallel(const std::vector<std::string>& paths, int, Schedule) {
  return process_serial(paths);
}

}  // namespace lab01
