// The interrupt guard's waiting thread is woken when the grading ends: a grading's end
// does not wait for the waiter's next tick (0.2 s), and the signal mask is as before.
#include <signal.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "cli/interrupt_guard.hpp"

using parlab::grader::InterruptGuard;

TEST_CASE("the interrupt guard ends at once and leaves the signal mask as it found it", "[interrupt_guard]") {
  const auto start = std::chrono::steady_clock::now();
  // Each guard is destroyed once its waiter is in its wait (20 ms later): waited out, the
  // five would take about a second; woken, a tenth of that.
  for (int i = 0; i < 5; ++i) {
    InterruptGuard guard([](const parlab::grader::GradeResult&) {});
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(seconds < 0.5);
  sigset_t mask;
  REQUIRE(::pthread_sigmask(SIG_BLOCK, nullptr, &mask) == 0);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGRTMIN}) {
    INFO(sig);
    CHECK_FALSE(::sigismember(&mask, sig));
  }
}
