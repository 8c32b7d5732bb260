#include "cli/interrupt_guard.hpp"

#include "score/scoring.hpp"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>

namespace parlab::grader {
namespace {

sigset_t stop_signals() {
  sigset_t set;
  ::sigemptyset(&set);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) ::sigaddset(&set, s);
  return set;
}

// Sent by the destructor to the waiting thread alone, so that a grading ends when it is
// done, not at the waiter's next tick (up to 0.2 s later: the wall time of every grading
// ended on a tick).
int wake_signal() { return SIGRTMIN; }

// What the waiter waits for: the stop signals and the wake-up.
sigset_t waited_signals() {
  sigset_t set = stop_signals();
  ::sigaddset(&set, wake_signal());
  return set;
}

}  // namespace

InterruptGuard::InterruptGuard(std::function<void(const GradeResult&)> write_partial)
    : write_partial_(std::move(write_partial)) {
  sigset_t set = waited_signals();
  ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
  waiter_ = std::thread([this] { wait_for_signals(); });
}

InterruptGuard::~InterruptGuard() {
  stop_ = true;
  // Pending for the waiter until it takes it, whether it is waiting yet or not.
  ::pthread_kill(waiter_.native_handle(), wake_signal());
  waiter_.join();
  // A signal that arrived after the grading finished is delivered now, as usual.
  sigset_t set = waited_signals();
  ::pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

void InterruptGuard::checkpoint(const GradeResult& partial) {
  std::lock_guard<std::mutex> lock(mutex_);
  latest_ = partial;
}

std::optional<GradeResult> InterruptGuard::latest() {
  std::lock_guard<std::mutex> lock(mutex_);
  return latest_;
}

void InterruptGuard::wait_for_signals() {
  const sigset_t set = waited_signals();
  const timespec tick{0, 200 * 1000 * 1000};
  while (!stop_) {
    const int sig = ::sigtimedwait(&set, nullptr, &tick);
    if (sig <= 0 || sig == wake_signal()) continue;
    std::lock_guard<std::mutex> lock(mutex_);
    std::cerr << "\ngrade: interrupted by " << (sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP");
    if (latest_) {
      GradeResult partial = *latest_;
      partial.interrupted = std::string("interrupted by ") + ::strsignal(sig) + " after " +
                            std::to_string(partial.tests.size()) + " test(s)";
      partial.notes.push_back("incomplete: " + partial.interrupted +
                              "; the score counts only the tests listed");
      partial.score = 0;
      for (const TestResult& t : partial.tests) partial.score += t.points;
      partial.score = round_points(partial.score);
      try {
        write_partial_(partial);
        std::cerr << "; partial result written";
      } catch (const std::exception& e) {
        std::cerr << "; could not write the partial result: " << e.what();
      }
    }
    std::cerr << "\n";
    std::_Exit(128 + sig);
  }
}

}  // namespace parlab::grader
