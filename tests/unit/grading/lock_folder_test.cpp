// A root grader's measurement lock folder is root's alone: a submission's run (a
// pool uid) can neither open its lock files (flock needs only a read descriptor)
// nor write a holder line; a folder another user owns or may write is refused; a
// holder line of a dead process is removed and one its process did not write ignored.
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "core/errors.hpp"
#include "grading/measurement_lock.hpp"
#include "scratch_dir.hpp"

namespace fs = std::filesystem;
using namespace parlab::grader;

namespace {

constexpr uid_t kRunUid = 61104;  // outside the default pool; no account uses it

// What a run of `uid` manages against the folder: 0 nothing, 1 opened a lock file,
// 2 wrote a holder line.
int run_attacks(uid_t uid, const fs::path& dir) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::syscall(SYS_setgroups, 0, nullptr) != 0 || ::syscall(SYS_setresgid, uid, uid, uid) != 0 ||
        ::syscall(SYS_setresuid, uid, uid, uid) != 0)
      ::_exit(100);
    if (::open((dir / "machine.gate").c_str(), O_RDONLY) >= 0) ::_exit(1);
    if (::open((dir / "holders" / "1").c_str(), O_WRONLY | O_CREAT, 0644) >= 0) ::_exit(2);
    ::_exit(0);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 101;
}

std::string refusal_of(const fs::path& dir) {
  try {
    MeasurementLock lock(dir, std::nullopt);
  } catch (const EnvironmentError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a root grader's lock folder is closed to the runs", "[lock]") {
  if (::geteuid() != 0) {
    WARN("not running as root: a non-root grader's runs are its own user");
    CHECK(MeasurementLock::default_dir() == "/tmp/parlab-locks");
    return;
  }
  ::unsetenv("PARLAB_LOCK_DIR");
  CHECK(MeasurementLock::default_dir() == "/run/parlab/locks");
  parlab::testing::ScratchDir s;
  const fs::path dir = s / "locks";
  MeasurementLock lock(dir, std::nullopt, {}, "grade lab01 /x");
  lock.take_exclusive();
  struct stat info {};
  REQUIRE(::stat(dir.c_str(), &info) == 0);
  CHECK((info.st_mode & 07777) == 0700);
  REQUIRE(::stat((dir / "machine.lock").c_str(), &info) == 0);
  CHECK((info.st_mode & 07777) == 0600);
  CHECK(info.st_uid == 0);
  // Even with the folder opened up, the files themselves refuse the run.
  CHECK(run_attacks(kRunUid, dir) == 0);
  ::chmod(dir.c_str(), 0755);
  CHECK(run_attacks(kRunUid, dir) == 0);
  lock.release();
}

TEST_CASE("a root grader refuses a lock folder others own or may write", "[lock]") {
  if (::geteuid() != 0) {
    WARN("not running as root: a non-root grader shares a world-writable folder");
    return;
  }
  parlab::testing::ScratchDir s;
  const fs::path theirs = s / "theirs";
  fs::create_directories(theirs);
  REQUIRE(::chown(theirs.c_str(), kRunUid, kRunUid) == 0);
  const std::string refused = refusal_of(theirs);
  CHECK(refused.find(theirs.string()) != std::string::npos);
  CHECK(refused.find("owned by uid 61104") != std::string::npos);

  const fs::path open = s / "open";  // an older grader's /tmp/parlab-locks
  fs::create_directories(open);
  ::chmod(open.c_str(), 01777);
  const std::string also = refusal_of(open);
  CHECK(also.find(open.string()) != std::string::npos);
  CHECK(also.find("writable by other users") != std::string::npos);
}

TEST_CASE("holder lines of dead processes go, forged ones are ignored", "[lock]") {
  parlab::testing::ScratchDir s;
  const fs::path dir = s / "locks";
  { MeasurementLock make(dir, std::nullopt); make.share(); }
  fs::create_directories(dir / "holders");
  const pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ::waitpid(dead, nullptr, 0);
  std::ofstream(dir / "holders" / std::to_string(dead)) << "1700000000\tmeasuring\tgrade lab01 /gone";
  std::ofstream(dir / "holders" / "1") << "1700000000\tmeasuring\texam-solutions";
  // pid 1 is not this user's when not root, and root's when root: a forged line is
  // one whose owner differs from its process's.
  if (::geteuid() == 0 && ::chown((dir / "holders" / "1").c_str(), kRunUid, kRunUid) != 0) FAIL("chown");

  CHECK(MeasurementLock::describe_holders(dir).empty());
  CHECK_FALSE(fs::exists(dir / "holders" / std::to_string(dead)));
}
