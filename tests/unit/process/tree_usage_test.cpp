// The tree sampler on real processes: how the CPU time of a run was spread. Each
// worker spins for a fixed amount of its own CPU time, so the expected spread holds
// however loaded the machine is (time-slicing stretches the wall time, not the split).
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <ctime>
#include <thread>
#include <vector>

#include "process/machine_load.hpp"
#include "process/tree_usage.hpp"

using namespace parlab::grader::process;

namespace {

double thread_cpu_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

void spin_for_cpu(double seconds) {
  volatile double sink = 0;
  const double start = thread_cpu_seconds();
  while (thread_cpu_seconds() - start < seconds) sink = sink + 1;
}

// A process of the run that has done its work waits in `wait_until_sampled` until the
// sampler has looked once more, so what it did is seen whole however late a loaded
// machine wakes the sampler: a sample that takes long puts the next one nine times as
// far off, and a 0.05 s helper once started and ended between two looks (a fresh-clone
// CI run, two tests on two cores). The claims below are about what a look counts, not
// about how often a starved sampler gets to look.
int g_done_pipe[2] = {-1, -1};  // a process that finished its work writes one byte
int g_go_pipe[2] = {-1, -1};    // the sampler hands back one byte per waiting process

void wait_until_sampled() {
  char byte = 1;
  if (::write(g_done_pipe[1], &byte, 1) != 1) return;
  while (::read(g_go_pipe[0], &byte, 1) < 0 && errno == EINTR) {
  }
}

// Starts a root process running `body`, samples its tree every 20 ms until it exits.
template <typename Body>
TreeUsage sample_run(Body body, int helper_depth = 0) {
  REQUIRE(::pipe2(g_done_pipe, O_NONBLOCK) == 0);
  REQUIRE(::pipe(g_go_pipe) == 0);
  const pid_t root = ::fork();
  if (root == 0) {
    body();
    ::_exit(0);
  }
  TreeSampler sampler(root, {}, helper_depth);
  int waiting = 0;
  int looks_when_told = 0;
  int status = 0;
  while (::waitpid(root, &status, WNOHANG) == 0) {
    char bytes[16];
    for (ssize_t n; (n = ::read(g_done_pipe[0], bytes, sizeof bytes)) > 0;) {
      waiting += static_cast<int>(n);
      looks_when_told = sampler.usage().samples;
    }
    sampler.sample();
    // A look begun after the bytes were read began after those processes' work ended.
    if (waiting > 0 && sampler.usage().samples > looks_when_told) {
      for (; waiting > 0; --waiting) REQUIRE(::write(g_go_pipe[1], bytes, 1) == 1);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  for (int fd : {g_done_pipe[0], g_done_pipe[1], g_go_pipe[0], g_go_pipe[1]}) ::close(fd);
  return sampler.usage();
}

}  // namespace

TEST_CASE("work done by one process has a spread of 1", "[tree]") {
  TreeUsage u = sample_run([] {
    spin_for_cpu(0.3);
    wait_until_sampled();
  });
  REQUIRE(u.observed);
  CHECK(u.processes == 1);
  CHECK(u.process_spread() == Approx(1.0).margin(0.05));
  CHECK(u.thread_spread() == Approx(1.0).margin(0.05));
}

TEST_CASE("two worker processes sharing the work have a spread near 2", "[tree]") {
  TreeUsage u = sample_run([] {
    std::vector<pid_t> workers;
    for (int i = 0; i < 2; ++i) {
      const pid_t w = ::fork();
      if (w == 0) {
        spin_for_cpu(0.3);
        wait_until_sampled();
        ::_exit(0);
      }
      workers.push_back(w);
    }
    for (pid_t w : workers) ::waitpid(w, nullptr, 0);
  });
  REQUIRE(u.observed);
  CHECK(u.processes >= 2);
  CHECK(u.process_spread() > 1.6);
  CHECK(u.process_spread() < 2.3);
}

// A thread's CPU time counts as of the last sample that saw it; a sampler starved by a
// loaded machine (measured under ASan) could miss a thread's whole run. The thread waits
// for a look after its work, so it is sampled with its total before it exits.
void spin_then_wait_for_a_look(double seconds) {
  spin_for_cpu(seconds);
  wait_until_sampled();
}

TEST_CASE("two threads of one process spread over threads, not processes", "[tree]") {
  TreeUsage u = sample_run([] {
    std::thread a([] { spin_then_wait_for_a_look(0.3); });
    std::thread b([] { spin_then_wait_for_a_look(0.3); });
    a.join();
    b.join();
  });
  REQUIRE(u.observed);
  CHECK(u.processes == 1);
  CHECK(u.threads >= 2);
  CHECK(u.process_spread() == Approx(1.0).margin(0.05));
  CHECK(u.thread_spread() > 1.6);
}

// bubblewrap's shape: its monitor (the root) starts the sandbox's init, which starts the
// program. Each helper spends CPU time of its own setting up, as bwrap's mounts do.
void helpers_then_program(double helper_cpu_s, double program_cpu_s) {
  spin_for_cpu(helper_cpu_s);
  wait_until_sampled();
  const pid_t init = ::fork();
  if (init == 0) {
    spin_for_cpu(helper_cpu_s);
    wait_until_sampled();
    const pid_t program = ::fork();
    if (program == 0) {
      spin_for_cpu(program_cpu_s);
      wait_until_sampled();
      ::_exit(0);
    }
    ::waitpid(program, nullptr, 0);
    ::_exit(0);
  }
  ::waitpid(init, nullptr, 0);
}

TEST_CASE("the sandbox's helpers are not working processes of the run", "[tree]") {
  // Each helper spends an eighth of the program's time: counted as work, a serial
  // program would be three working processes.
  TreeUsage plain = sample_run([] { helpers_then_program(0.05, 0.4); });
  REQUIRE(plain.observed);
  CHECK(plain.processes == 3);

  TreeUsage u = sample_run([] { helpers_then_program(0.05, 0.4); }, 2);
  REQUIRE(u.observed);
  CHECK(u.processes == 1);
  CHECK(u.threads == 1);
  CHECK(u.process_spread() == Approx(1.0).margin(0.05));
  CHECK(u.helper_seconds > 0.05);
  CHECK(u.cpu_seconds < 0.45);
  // The helpers' time is still part of what the samples saw of the tree.
  CHECK(u.coverage(u.cpu_seconds + u.helper_seconds) == Approx(1.0));
}

TEST_CASE("a cgroup-less sampler of a vanished root observes nothing", "[tree]") {
  TreeSampler sampler(999999999);
  sampler.sample();
  TreeUsage u = sampler.usage();
  CHECK_FALSE(u.observed);
  CHECK(u.process_spread() == 0);
}

TEST_CASE("the machine's CPU counters only grow", "[tree][load]") {
  CpuCounters before = read_cpu_counters();
  REQUIRE(before.ok);
  spin_for_cpu(0.05);
  CpuCounters after = read_cpu_counters();
  REQUIRE(after.ok);
  CHECK(after.busy_seconds >= before.busy_seconds + 0.02);
  CHECK(after.steal_seconds >= before.steal_seconds);
}

TEST_CASE("coverage: the sampled CPU time against the tree's, measured apart", "[tree]") {
  TreeUsage u;
  u.observed = true;
  u.cpu_seconds = 0.9;
  CHECK(u.coverage(1.0) == Approx(0.9));
  CHECK(u.coverage(3.0) == Approx(0.3));  // short-lived workers ended unseen
  CHECK(u.coverage(-1) == 0);             // no total to compare with: not trusted
}

namespace {

struct SampledRun {
  TreeUsage usage;
  double tree_cpu = 0;
};

// Two workers of 100 ms each under a root, sampled every 5 ms until the root ends.
SampledRun sample_two_short_workers() {
  const pid_t root = ::fork();
  if (root == 0) {
    std::vector<pid_t> workers;
    for (int i = 0; i < 2; ++i) {
      const pid_t w = ::fork();
      if (w == 0) {
        spin_for_cpu(0.1);
        ::_exit(0);
      }
      workers.push_back(w);
    }
    for (pid_t w : workers) ::waitpid(w, nullptr, 0);
    ::_exit(0);
  }
  TreeSampler sampler(root);
  rusage usage{};
  int status = 0;
  while (::wait4(root, &status, WNOHANG, &usage) == 0) {
    sampler.sample();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  SampledRun run;
  run.tree_cpu = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                 static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  run.usage = sampler.usage();
  return run;
}

}  // namespace

TEST_CASE("short-lived workers are seen when sampled every 5 ms", "[tree]") {
  // lab01's skewed dataset: each worker works 50 ms; 100 here so that a machine busy
  // with other tests (the sampler then wakes late) still looks several times. No count
  // of looks is asserted: the sampler waits nine times as long as its last look took
  // (overhead under 10%), so under a sanitizer or on a loaded runner a 0.2 s run gets
  // only two looks (seen in CI). What they saw is the claim, in one of three tries: with
  // other tests beside it on two cores, one worker sometimes ran whole between two looks
  // (0.10 of 0.21 s seen, in a fresh-clone CI run), which says the machine was busy,
  // not that the sampler cannot see.
  SampledRun run;
  for (int attempt = 1; attempt <= 3; ++attempt) {
    run = sample_two_short_workers();
    UNSCOPED_INFO("try " << attempt << ": sampled " << run.usage.cpu_seconds << " s of " << run.tree_cpu
                         << " s in " << run.usage.samples << " looks, spread " << run.usage.process_spread());
    if (run.usage.coverage(run.tree_cpu) > 0.6 && run.usage.process_spread() > 1.5) break;
  }
  CHECK(run.usage.samples >= 1);
  CHECK(run.usage.coverage(run.tree_cpu) > 0.6);
  CHECK(run.usage.process_spread() > 1.5);
}
