#pragma once
// A grading stopped by SIGINT, SIGTERM or SIGHUP still leaves its result (DESIGN
// invariant 6): the signals are blocked in every thread and one thread waits for them;
// when one arrives it writes the last checkpoint of the result, marked interrupted,
// to the files asked for, and the process exits with 128 + the signal (the children
// die with it: they carry PR_SET_PDEATHSIG).
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <atomic>

#include "result/result.hpp"

namespace parlab::grader {

class InterruptGuard {
 public:
  // Must be constructed before any other thread exists (the mask is inherited).
  // `write_partial` renders and writes a partial result; it runs on the guard's thread.
  explicit InterruptGuard(std::function<void(const GradeResult&)> write_partial);
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  // The result so far (called after each step of the grading).
  void checkpoint(const GradeResult& partial);
  // The last checkpoint, if any.
  std::optional<GradeResult> latest();

 private:
  void wait_for_signals();

  std::function<void(const GradeResult&)> write_partial_;
  std::mutex mutex_;
  std::optional<GradeResult> latest_;
  std::atomic<bool> stop_{false};
  std::thread waiter_;
};

}  // namespace parlab::grader
