// A stuck process tree is described from what each process sleeps in; a real
// wait-before-read deadlock is recognised as all blocked.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <thread>
#include <vector>

#include "process/stuck_tree.hpp"

using namespace parlab::grader::process;
using Catch::Contains;

namespace {
ProcessState state(pid_t pid, pid_t ppid, BlockedIn b) {
  ProcessState p;
  p.pid = pid;
  p.ppid = ppid;
  p.blocked = b;
  return p;
}
}  // namespace

TEST_CASE("wait-before-read: the parent waits, the workers write to full pipes",
          "[process][stuck]") {
  const std::vector<ProcessState> tree = {state(10, 1, BlockedIn::child_wait),
                                          state(11, 10, BlockedIn::pipe_write),
                                          state(12, 10, BlockedIn::pipe_write)};
  CHECK(all_blocked(tree));
  const std::string text = describe_stuck_tree(tree);
  CHECK_THAT(text, Contains("all 3 processes blocked: the program in wait4"));
  CHECK_THAT(text, Contains("2 workers writing to a full pipe"));
  CHECK_THAT(text, Contains("read the pipes before waiting"));
}

TEST_CASE("a Python program stuck in multiprocessing gets Python's lesson, not pipe ends",
          "[process][stuck]") {
  // A Pool whose worker was killed: the parent waits on a lock, a worker reads its pipe.
  std::vector<ProcessState> tree = {state(10, 1, BlockedIn::futex), state(11, 10, BlockedIn::pipe_read),
                                    state(12, 10, BlockedIn::futex)};
  tree[0].program = "python3.11";
  const std::string text = describe_stuck_tree(tree);
  CHECK_THAT(text, Contains("multiprocessing.Pool never notices a worker that was killed"));
  CHECK_THAT(text, Contains("BrokenProcessPool"));
  CHECK_THAT(text, !Contains("right after fork()"));
  // The same tree of a C++ program keeps the pipe-ends lesson.
  tree[0].program = "lab01_submission";
  CHECK_THAT(describe_stuck_tree(tree), Contains("close the ends you do not use right after fork()"));
}

TEST_CASE("a running or sleeping process is not a deadlock, nor worth a sentence",
          "[process][stuck]") {
  CHECK_FALSE(all_blocked({state(10, 1, BlockedIn::child_wait), state(11, 10, BlockedIn::running)}));
  CHECK_FALSE(all_blocked({state(10, 1, BlockedIn::sleep)}));
  CHECK_FALSE(all_blocked({state(10, 1, BlockedIn::exited)}));  // nothing left alive
  CHECK(describe_stuck_tree({state(10, 1, BlockedIn::running)}).empty());
  ProcessState gpu = state(10, 1, BlockedIn::poll);
  gpu.uses_gpu = true;
  CHECK_FALSE(all_blocked({gpu}));
}

TEST_CASE("a real parent waiting for a child stuck on a full pipe is all blocked",
          "[process][stuck][slow]") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t parent = ::fork();
  REQUIRE(parent >= 0);
  if (parent == 0) {
    ::setpgid(0, 0);
    const pid_t worker = ::fork();
    if (worker == 0) {
      std::vector<char> big(1 << 20, 'x');
      (void)!::write(fds[1], big.data(), big.size());  // blocks: nobody reads
      ::_exit(0);
    }
    ::waitpid(worker, nullptr, 0);  // blocks forever: the deadlock
    ::_exit(0);
  }
  ::close(fds[1]);
  StuckWatch watch(parent, std::chrono::milliseconds(100), std::chrono::milliseconds(500));
  std::optional<std::string> verdict;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!verdict && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    verdict = watch.check(std::chrono::steady_clock::now());
  }
  ::kill(-parent, SIGKILL);
  ::kill(parent, SIGKILL);
  ::waitpid(parent, nullptr, 0);
  ::close(fds[0]);
  REQUIRE(verdict);
  CHECK_THAT(*verdict, Contains("the program in wait4"));
  CHECK_THAT(*verdict, Contains("1 worker writing to a full pipe"));
}

TEST_CASE("a process's program is read from its executable, not its command name",
          "[process][stuck]") {
  // A Python script's comm is the script's name; its executable is the interpreter.
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::execlp("python3", "python3", "-c", "import time; time.sleep(5)", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  std::vector<ProcessState> tree;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < give_up) {
    tree = read_process_tree(child);
    if (!tree.empty() && tree[0].program.rfind("python", 0) == 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  REQUIRE_FALSE(tree.empty());
  CHECK(tree[0].program.rfind("python", 0) == 0);
}
