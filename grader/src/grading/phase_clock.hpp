#pragma once
// Where a grading's wall time goes (result.json "phase_seconds"): one clock, always in
// exactly one phase; a step enters its phase for its scope and the one it interrupted
// resumes after it, so nested steps (a re-run inside a test) are not counted twice and
// the phases never sum to more than the grading's time.
#include <chrono>

#include "result/result.hpp"

namespace parlab::grader {

class PhaseClock {
 public:
  PhaseClock();
  // Charges the time since the last switch to the current phase, then switches.
  // Returns the phase that was current.
  GradingPhase switch_to(GradingPhase next);
  // The totals so far, the current phase charged up to now.
  PhaseSeconds totals();

 private:
  std::chrono::steady_clock::time_point since_;
  GradingPhase current_ = GradingPhase::setup;
  PhaseSeconds totals_;
};

// In `phase` for this scope; the interrupted phase resumes at its end.
class PhaseScope {
 public:
  PhaseScope(PhaseClock& clock, GradingPhase phase) : clock_(clock), previous_(clock.switch_to(phase)) {}
  ~PhaseScope() { clock_.switch_to(previous_); }
  PhaseScope(const PhaseScope&) = delete;
  PhaseScope& operator=(const PhaseScope&) = delete;

 private:
  PhaseClock& clock_;
  GradingPhase previous_;
};

}  // namespace parlab::grader
