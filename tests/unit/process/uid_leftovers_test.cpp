// What a leased uid leaves behind is swept: its processes killed (daemons that left
// the process group included), its files in the shared scratch folders removed, and
// nothing of another uid touched. Root only (only root can act as another uid).
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <fstream>

#include "process/hidden_processes.hpp"
#include "process/uid_leftovers.hpp"
#include "process_test_support.hpp"

using namespace parlab::grader::process;
using parlab::grader::test::ScratchDir;
namespace fs = std::filesystem;

namespace {

constexpr uid_t kLitterUid = 61100;  // outside the default pool; no account uses it
constexpr uid_t kBystanderUid = 61101;
constexpr uid_t kForkChainUid = 61102;  // its own: the chain's zombies, adopted, wait a while to be reaped

// A process of `uid` that sleeps in a session of its own (as a daemon would).
pid_t sleeper_of(uid_t uid) {
  pid_t pid = ::fork();
  if (pid == 0) {
    ::setsid();
    if (::syscall(SYS_setresgid, uid, uid, uid) != 0 || ::syscall(SYS_setresuid, uid, uid, uid) != 0) ::_exit(1);
    ::pause();
    ::_exit(0);
  }
  return pid;
}

fs::path file_of(uid_t uid, const fs::path& path) {
  std::ofstream(path) << "litter";
  REQUIRE(::chown(path.c_str(), uid, uid) == 0);
  return path;
}

}  // namespace

TEST_CASE("A uid's processes are killed and nobody else's", "[process][leftovers]") {
  if (::geteuid() != 0) {
    WARN("not running as root: no other uid to act as");
    return;
  }
  const pid_t litter = sleeper_of(kLitterUid);
  const pid_t bystander = sleeper_of(kBystanderUid);
  ::usleep(50000);  // both have switched uid
  CHECK(kill_every_process_of(kLitterUid, kLitterUid) >= 1);
  int status = 0;
  CHECK(::waitpid(litter, &status, WNOHANG) == -1);  // already reaped by the sweep
  CHECK(::kill(litter, 0) != 0);                       // gone
  CHECK(::kill(bystander, 0) == 0);                   // untouched
  ::kill(bystander, SIGKILL);
  ::waitpid(bystander, &status, 0);
  CHECK(kill_every_process_of(kLitterUid, kLitterUid) == 0);  // nothing left to kill
}

// The sweep's killer sends a few rounds of kill(-1), not one until ESRCH (which never
// comes outside a pid namespace): a process that keeps forking and exiting, so that its
// pid is never the same twice (and a walk of /proc rarely sees it), must still be gone
// after one sweep. Each copy counts its fork in a page they all share: a count that
// stops growing is a chain that has ended.
TEST_CASE("A uid's process that forks without end is gone after one sweep", "[process][leftovers]") {
  if (::geteuid() != 0) {
    WARN("not running as root: no other uid to act as");
    return;
  }
  void* page = ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  REQUIRE(page != MAP_FAILED);
  auto* forks = static_cast<std::atomic<std::uint64_t>*>(page);
  const pid_t runner = ::fork();
  if (runner == 0) {
    ::setsid();
    if (::syscall(SYS_setresgid, kForkChainUid, kForkChainUid, kForkChainUid) != 0 ||
        ::syscall(SYS_setresuid, kForkChainUid, kForkChainUid, kForkChainUid) != 0)
      ::_exit(1);
    // A bound, should the sweep miss it: each copy inherits the deadline (an alarm would
    // not survive the fork).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (std::chrono::steady_clock::now() < deadline) {
      const pid_t next = ::fork();
      if (next > 0) ::_exit(0);  // the parent leaves; the child goes on under a new pid
      if (next == 0) forks->fetch_add(1);
      // next < 0 (the uid's process limit, reached by adopted zombies): try again
    }
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(runner, &status, 0);  // the first copy left at its first fork
  ::usleep(100000);
  const std::uint64_t running = forks->load();
  ::usleep(50000);
  REQUIRE(forks->load() > running);  // the chain is alive and forking
  kill_every_process_of(kForkChainUid, kForkChainUid);
  const std::uint64_t at_sweep = forks->load();
  ::usleep(200000);
  CHECK(forks->load() == at_sweep);  // and after the sweep no copy forks any more
  ::munmap(page, 4096);
}

TEST_CASE("A uid's files in the scratch folders are removed, links not followed",
          "[process][leftovers]") {
  if (::geteuid() != 0) {
    WARN("not running as root: no other uid to act as");
    return;
  }
  ScratchDir scratch;
  const fs::path shm = scratch / "shm";
  fs::create_directories(shm);
  const fs::path own_file = file_of(kLitterUid, shm / "big");
  const fs::path own_dir = shm / "tree";
  fs::create_directories(own_dir / "a" / "b");
  file_of(kBystanderUid, own_dir / "a" / "b" / "inside");  // inside the uid's folder: goes too
  REQUIRE(::chown(own_dir.c_str(), kLitterUid, kLitterUid) == 0);
  const fs::path target = file_of(kBystanderUid, scratch / "target");
  fs::create_symlink(target, shm / "link");
  REQUIRE(::lchown((shm / "link").c_str(), kLitterUid, kLitterUid) == 0);
  const fs::path other = file_of(kBystanderUid, shm / "other");

  std::vector<std::string> problems;
  CHECK(remove_entries_owned_by(kLitterUid, {shm, scratch / "missing"}, problems) == 3);
  CHECK(problems.empty());
  CHECK_FALSE(fs::exists(fs::symlink_status(own_file)));
  CHECK_FALSE(fs::exists(fs::symlink_status(own_dir)));
  CHECK_FALSE(fs::exists(fs::symlink_status(shm / "link")));
  CHECK(fs::exists(target));  // the link's target is not the uid's
  CHECK(fs::exists(other));
}

TEST_CASE("A uid's files nested in folders others may write to are removed, the grader's kept",
          "[process][leftovers]") {
  if (::geteuid() != 0) {
    WARN("not running as root: no other uid to act as");
    return;
  }
  ScratchDir scratch;
  const fs::path tmp = scratch / "tmp";  // stands for /tmp
  auto folder = [](const fs::path& path, mode_t mode) {
    fs::create_directories(path);
    REQUIRE(::chmod(path.c_str(), mode) == 0);
    return path;
  };
  folder(tmp, 01777);
  const fs::path shared = folder(tmp / "shared", 01777);   // someone's 1777 folder in /tmp
  const fs::path closed = folder(tmp / "closed", 0755);    // the grader's: the uid cannot write there
  const fs::path deeper = folder(closed / "a" / "open", 01777);
  const fs::path hidden = folder(tmp / "private", 0700);   // the uid could not pass it
  folder(hidden / "open", 01777);
  const fs::path outside = folder(scratch / "outside", 01777);
  const fs::path nested = file_of(kLitterUid, shared / "answers");
  const fs::path deep = file_of(kLitterUid, deeper / "answers");
  const fs::path kept_run_file = file_of(kLitterUid, closed / "run-output");
  const fs::path unreachable = file_of(kLitterUid, hidden / "open" / "answers");
  const fs::path beyond_link = file_of(kLitterUid, outside / "answers");
  fs::create_directory_symlink(outside, shared / "link");
  const fs::path bystander = file_of(kBystanderUid, shared / "theirs");

  std::vector<std::string> problems;
  CHECK(remove_entries_owned_by(kLitterUid, {tmp}, problems) == 2);
  CHECK(problems.empty());
  CHECK_FALSE(fs::exists(nested));
  CHECK_FALSE(fs::exists(deep));
  CHECK(fs::exists(kept_run_file));  // a run's folder or output, in a folder of the grader's
  CHECK(fs::exists(unreachable));
  CHECK(fs::exists(beyond_link));    // links are not followed
  CHECK(fs::exists(bystander));
  CHECK(fs::is_directory(shared));
}

TEST_CASE("The default scratch folders are the shared ones", "[process][leftovers]") {
  const std::vector<fs::path> folders = shared_scratch_folders();
  CHECK(std::find(folders.begin(), folders.end(), fs::path("/dev/shm")) != folders.end());
  CHECK(std::find(folders.begin(), folders.end(), fs::path("/tmp")) != folders.end());
  CHECK(std::find(folders.begin(), folders.end(), fs::path("/var/tmp")) != folders.end());
  CHECK(std::find(folders.begin(), folders.end(), fs::path("/run/lock")) != folders.end());
}

TEST_CASE("A private hidepid /proc hides other users' processes from a child",
          "[process][leftovers]") {
  if (hidden_processes_problem()) {
    WARN("cannot mount a private /proc here: " + *hidden_processes_problem());
    return;
  }
  pid_t pid = ::fork();
  if (pid == 0) {
    if (!hide_other_processes()) ::_exit(2);
    if (::syscall(SYS_setresgid, kLitterUid, kLitterUid, kLitterUid) != 0 ||
        ::syscall(SYS_setresuid, kLitterUid, kLitterUid, kLitterUid) != 0)
      ::_exit(3);
    struct stat info {};
    const bool sees_init = ::stat("/proc/1", &info) == 0;
    const bool sees_self = ::stat("/proc/self/status", &info) == 0;
    ::_exit(!sees_init && sees_self ? 0 : 4);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  // The grader's own /proc is unchanged.
  struct stat info {};
  CHECK(::stat("/proc/1", &info) == 0);
}

TEST_CASE("Files in a folder the uid cannot write are passed over, a folder open to it below is not",
          "[process][leftovers]") {
  if (::geteuid() != 0) {
    WARN("not running as root: no other uid to act as");
    return;
  }
  ScratchDir scratch;
  auto folder = [](const fs::path& path, mode_t mode, uid_t owner) {
    fs::create_directories(path);
    REQUIRE(::chown(path.c_str(), owner, owner) == 0);
    REQUIRE(::chmod(path.c_str(), mode) == 0);
    return path;
  };
  const fs::path tmp = folder(scratch / "tmp", 01777, 0);
  // Another user's build tree: many files, none the uid could have made...
  const fs::path build = folder(tmp / "build", 0755, kBystanderUid);
  for (int i = 0; i < 50; ++i) file_of(kBystanderUid, build / ("object" + std::to_string(i)));
  const fs::path kept = file_of(kLitterUid, build / "given-to-the-uid");  // chown'd there, not made
  // ...but a world-writable folder two levels down, where the uid can leave files.
  const fs::path sub = folder(build / "sub", 0755, kBystanderUid);
  const fs::path open = folder(sub / "open", 01777, kBystanderUid);
  const fs::path answers = file_of(kLitterUid, open / "answers");
  const fs::path leaf = folder(build / "leaf", 0755, kBystanderUid);  // no folder inside: not opened
  const fs::path kept_in_leaf = file_of(kLitterUid, leaf / "given-to-the-uid");
  const fs::path answer_dir = folder(open / "answers.d", 0700, kLitterUid);
  file_of(kLitterUid, answer_dir / "inside");

  std::vector<std::string> problems;
  CHECK(remove_entries_owned_by(kLitterUid, {tmp}, problems) == 2);
  CHECK(problems.empty());
  CHECK_FALSE(fs::exists(answers));
  CHECK_FALSE(fs::exists(answer_dir));
  CHECK(fs::exists(kept));
  CHECK(fs::exists(kept_in_leaf));
  CHECK(fs::exists(build / "object49"));
  CHECK(fs::is_directory(open));
}

TEST_CASE("After bubblewrap runs only the scratch folders a writable bind reaches are searched",
          "[process][leftovers]") {
  // Its /tmp and /dev/shm are private tmpfs, /var and /run are not mounted.
  using Paths = std::vector<fs::path>;
  CHECK(scratch_reachable_through({}).empty());
  CHECK(scratch_reachable_through({"/home/teacher/work/runs/1"}).empty());
  // A bind inside /tmp reaches only itself, not the rest of /tmp.
  const ScratchReach in_tmp = scratch_reachable_through({"/tmp/work/runs/1"});
  CHECK(in_tmp.folders.empty());
  CHECK(in_tmp.subtrees == Paths{"/tmp/work/runs/1"});
  const ScratchReach dotted = scratch_reachable_through({"/tmp/a/../../var/tmp/x"});
  CHECK(dotted.folders.empty());
  CHECK(dotted.subtrees == Paths{"/var/tmp/x"});
  CHECK(scratch_reachable_through({"/"}).folders.size() == shared_scratch_folders().size());
  CHECK(scratch_reachable_through({"/"}).subtrees.empty());
  CHECK(scratch_reachable_through({"/dev"}).folders == Paths{"/dev/shm", "/dev/mqueue"});
  // A bind of the whole folder makes a bind inside it redundant.
  const ScratchReach both = scratch_reachable_through({"/tmp/work", "/tmp"});
  CHECK(both.folders == Paths{"/tmp"});
  CHECK(both.subtrees.empty());
  if (fs::is_symlink("/var/lock") && fs::weakly_canonical("/var/lock") == "/run/lock")
    CHECK(scratch_reachable_through({"/var/lock"}).folders == Paths{"/run/lock"});
}

TEST_CASE("A bind inside a shared folder is searched as a subtree: its own entries are the run's",
          "[process][leftovers]") {
  ScratchDir scratch;
  const fs::path tmp = scratch / "tmp";
  fs::create_directories(tmp);
  REQUIRE(::chmod(tmp.c_str(), 01777) == 0);
  const fs::path work = tmp / "work";  // the grader's run folder, bound into the sandbox
  fs::create_directories(work / "open");
  REQUIRE(::chmod(work.c_str(), 0755) == 0);
  REQUIRE(::chmod((work / "open").c_str(), 01777) == 0);  // a folder the run opened to all
  const fs::path output = file_of(kLitterUid, work / "output");
  const fs::path litter = file_of(kLitterUid, work / "open" / "answers");
  const fs::path elsewhere = file_of(kLitterUid, tmp / "not-reached");

  std::vector<std::string> problems;
  CHECK(remove_entries_owned_by(kLitterUid, {work}, problems, false) == 1);
  CHECK(problems.empty());
  CHECK(fs::exists(output));      // the run's output, in the grader's folder
  CHECK_FALSE(fs::exists(litter));
  CHECK(fs::exists(elsewhere));   // outside the bind: the run could not reach it
}
