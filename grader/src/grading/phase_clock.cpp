#include "grading/phase_clock.hpp"

namespace parlab::grader {

PhaseClock::PhaseClock() : since_(std::chrono::steady_clock::now()) {}

GradingPhase PhaseClock::switch_to(GradingPhase next) {
  const auto now = std::chrono::steady_clock::now();
  totals_.of(current_) += std::chrono::duration<double>(now - since_).count();
  since_ = now;
  const GradingPhase was = current_;
  current_ = next;
  return was;
}

PhaseSeconds PhaseClock::totals() {
  switch_to(current_);
  return totals_;
}

}  // namespace parlab::grader
