// The uid pool: each lease a different uid, released with its lock.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "process/uid_pool.hpp"
#include "process_test_support.hpp"

using namespace parlab::grader::process;
using parlab::grader::test::ScratchDir;
using Catch::Contains;

namespace {

UidPoolConfig small_pool(const ScratchDir& scratch, unsigned count) {
  UidPoolConfig pool;
  pool.first = 61000;
  pool.count = count;
  pool.lock_dir = scratch / "uids";
  return pool;
}

}  // namespace

TEST_CASE("A uid range is read from text", "[process][uid_pool]") {
  UidPoolConfig pool = parse_uid_range("60500-60627");
  CHECK(pool.first == 60500);
  CHECK(pool.count == 128);
  CHECK(parse_uid_range("70000-70000").count == 1);
  CHECK_THROWS_AS(parse_uid_range("60500"), std::invalid_argument);
  CHECK_THROWS_AS(parse_uid_range("60627-60500"), std::invalid_argument);
  CHECK_THROWS_AS(parse_uid_range("0-100"), std::invalid_argument);  // root and system users
  CHECK_THROWS_AS(parse_uid_range("60500-x"), std::invalid_argument);
}

TEST_CASE("Leases never share a uid, and a released uid is leased again",
          "[process][uid_pool]") {
  ScratchDir scratch;
  UidPoolConfig pool = small_pool(scratch, 3);
  std::set<uid_t> seen;
  {
    UidLease a = lease_uid(pool);
    UidLease b = lease_uid(pool);
    UidLease c = lease_uid(pool);
    seen = {a.uid(), b.uid(), c.uid()};
    CHECK(seen.size() == 3);
    CHECK(a.gid() == a.uid());
    // All taken: the error says how to get more.
    CHECK_THROWS_WITH(lease_uid(pool), Contains("in use") && Contains("PARLAB_UID_POOL"));
  }
  UidLease again = lease_uid(pool);  // the locks went with the leases
  CHECK(seen.count(again.uid()) == 1);
}

TEST_CASE("A lease held by another process is skipped", "[process][uid_pool]") {
  ScratchDir scratch;
  UidPoolConfig pool = small_pool(scratch, 2);
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  pid_t holder = ::fork();
  REQUIRE(holder >= 0);
  if (holder == 0) {
    UidLease held = lease_uid(pool);
    char byte = 1;
    (void)::write(ready[1], &byte, 1);
    ::pause();
    _exit(0);
  }
  char byte = 0;
  REQUIRE(::read(ready[0], &byte, 1) == 1);
  UidLease mine = lease_uid(pool);
  CHECK(mine.uid() == pool.first + 1);
  CHECK_THROWS(lease_uid(pool));
  ::kill(holder, SIGKILL);  // a crashed grader: the kernel drops its lock
  ::waitpid(holder, nullptr, 0);
  CHECK(lease_uid(pool).uid() == pool.first);
  ::close(ready[0]);
  ::close(ready[1]);
}

TEST_CASE("A uid free in the lock folder but running processes is skipped",
          "[process][uid_pool]") {
  // Another grader that keeps its locks elsewhere (a chroot: its own /run) uses it.
  if (::geteuid() != 0) {
    WARN("skipped: not root: no other uid to run a process as");
    return;
  }
  ScratchDir scratch;
  UidPoolConfig pool = small_pool(scratch, 2);
  // A range of its own: the other tests here (run beside it by ctest -j) lease 61000,
  // and a process of that uid would make them skip it.
  pool.first = 61200;
  const pid_t other = ::fork();
  REQUIRE(other >= 0);
  if (other == 0) {
    if (::setresgid(pool.first, pool.first, pool.first) != 0 || ::setresuid(pool.first, pool.first, pool.first) != 0)
      _exit(1);
    ::pause();
    _exit(0);
  }
  bool switched = false;  // the child has taken the uid
  for (int i = 0; i < 200 && !switched; ++i) {
    struct stat info {};
    switched = ::stat(("/proc/" + std::to_string(other)).c_str(), &info) == 0 && info.st_uid == pool.first;
    if (!switched) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  REQUIRE(switched);
  CHECK(lease_uid(pool).uid() == pool.first + 1);
  ::kill(other, SIGKILL);
  ::waitpid(other, nullptr, 0);
  CHECK(lease_uid(pool).uid() == pool.first);
}

TEST_CASE("A lock folder others can write is refused", "[process][uid_pool]") {
  ScratchDir scratch;
  UidPoolConfig pool = small_pool(scratch, 1);
  std::filesystem::create_directories(pool.lock_dir);
  ::chmod(pool.lock_dir.c_str(), 0777);
  CHECK_THROWS_WITH(lease_uid(pool), Contains("writable by no one else"));
}

TEST_CASE("A full pool waits for a uid to be released", "[process][uid_pool]") {
  ScratchDir scratch;
  UidPoolConfig pool = small_pool(scratch, 1);
  std::optional<UidLease> held(lease_uid(pool));
  CHECK_FALSE(try_lease_uid(pool));
  // Another grading ends a moment later: its uid is ours.
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    held.reset();
  });
  pool.wait_seconds = 10;
  const auto start = std::chrono::steady_clock::now();
  UidLease mine = lease_uid(pool);
  release.join();
  CHECK(mine.uid() == pool.first);
  CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(250));
  // Still full after the wait: the error, as before.
  pool.wait_seconds = 0.3;
  CHECK_THROWS_WITH(lease_uid(pool), Contains("in use"));
  // The default pool holds 4 uids per core, at least 128; the environment waits.
  CHECK(default_uid_pool_count() >= 128);
  CHECK(default_uid_pool_count() >= 4 * std::thread::hardware_concurrency());
  CHECK(uid_pool_config_from_environment().wait_seconds > 0);
}

TEST_CASE("A grading takes all its uids at once or none", "[process][uid_pool]") {
  // Two gradings of a pool of 3, each needing two: one gets both, the other holds none
  // while it waits (one uid each would leave both waiting forever).
  ScratchDir scratch;
  UidPoolConfig pool = small_pool(scratch, 3);
  std::vector<UidLease> first = lease_uids(pool, 2);
  REQUIRE(first.size() == 2);
  CHECK(first[0].uid() != first[1].uid());
  pool.wait_seconds = 0.3;
  CHECK_THROWS_WITH(lease_uids(pool, 2), Contains("in use"));
  std::optional<UidLease> third = try_lease_uid(pool);  // the waiter kept nothing
  REQUIRE(third);
  CHECK(third->uid() == pool.first + 2);
  CHECK_THROWS_WITH(lease_uids(pool, 4), Contains("needs 4") && Contains("PARLAB_UID_POOL"));
}

TEST_CASE("Waiters for uids are served in the order they came", "[process][uid_pool]") {
  ScratchDir scratch;
  UidPoolConfig pool = small_pool(scratch, 2);
  pool.wait_seconds = 20;
  std::optional<std::vector<UidLease>> held(lease_uids(pool, 2));
  std::mutex order_mutex;
  std::vector<std::string> order;
  auto waiter = [&](const std::string& name, unsigned count) {
    std::vector<UidLease> got = lease_uids(pool, count);
    std::lock_guard<std::mutex> lock(order_mutex);
    order.push_back(name);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // held a moment
  };
  std::thread two([&] { waiter("needs two", 2); });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // first in line
  std::thread one([&] { waiter("needs one", 1); });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  held->pop_back();  // one uid free: the later, smaller waiter must not take it
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  {
    std::lock_guard<std::mutex> lock(order_mutex);
    CHECK(order.empty());
  }
  held.reset();
  two.join();
  one.join();
  CHECK(order == std::vector<std::string>{"needs two", "needs one"});
}

TEST_CASE("A waiter that died leaves the line", "[process][uid_pool]") {
  ScratchDir scratch;
  UidPoolConfig pool = small_pool(scratch, 1);
  std::optional<UidLease> held(lease_uid(pool));
  const pid_t waiter = ::fork();
  REQUIRE(waiter >= 0);
  if (waiter == 0) {
    pool.wait_seconds = 60;
    (void)lease_uid(pool);  // waits in line, then is killed
    _exit(0);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  ::kill(waiter, SIGKILL);
  ::waitpid(waiter, nullptr, 0);
  held.reset();
  pool.wait_seconds = 5;
  CHECK(lease_uid(pool).uid() == pool.first);  // not stuck behind the dead ticket
}
