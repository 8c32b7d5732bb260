// The grader mirrors the simulator's exit statuses (it does not link the simulator): the
// two declarations must agree, or a simulator stop would be read as a plain exit.
#include <catch2/catch.hpp>

#include "parlab_sim/exit_codes.hpp"
#include "process/exit_classifier.hpp"

using namespace parlab::grader::process;

TEST_CASE("The grader's copy of the simulator's exit statuses matches the simulator's",
          "[process][classify]") {
  CHECK(kHarnessOutOfMemoryExitCode == parlab_sim::kExitOutOfMemory);
  CHECK(kSimMemoryFaultExitCode == parlab_sim::kExitMemoryFault);
  CHECK(kSimDeadlockExitCode == parlab_sim::kExitDeadlock);
  CHECK(kSimKernelFaultExitCode == parlab_sim::kExitKernelFault);
  CHECK(kSimHostDeviceAccessExitCode == parlab_sim::kExitHostDeviceAccess);
  CHECK(kSimNotLockedExitCode == parlab_sim::kExitNotLocked);
  CHECK(kSimUnsupportedFeatureExitCode == parlab_sim::kExitUnsupportedFeature);
  CHECK(kSimUndefinedBehaviourExitCode == parlab_sim::kExitUndefinedBehaviour);
}
