// The itemized time of a grading: a nested phase is charged to itself, not to the phase
// it interrupted, and the totals never exceed the time that passed.
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

#include "grading/phase_clock.hpp"

using namespace parlab::grader;

TEST_CASE("phase clock: a nested phase is charged once, the outer one resumes", "[phase]") {
  const auto t0 = std::chrono::steady_clock::now();
  PhaseClock clock;
  clock.switch_to(GradingPhase::tests);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  {
    const PhaseScope rerun(clock, GradingPhase::checking_reruns);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const PhaseSeconds p = clock.totals();
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(p.tests >= 0.040);
  CHECK(p.checking_reruns >= 0.030);
  CHECK(p.reference_runs == 0);
  CHECK(p.sum() <= elapsed);
  // Back in the tests phase after the scope: more time goes there.
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  CHECK(clock.totals().tests >= p.tests + 0.010);
  CHECK(clock.totals().checking_reruns == p.checking_reruns);
}
