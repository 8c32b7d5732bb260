// The build step's target for where the tests run.
#include <catch2/catch.hpp>

#include "grading/build_step.hpp"

using namespace parlab::grader;

TEST_CASE("build step: a GPU lab is built for where its tests run", "[grading][steps]") {
  CHECK(build_target(Device::cpu, DeviceMode::host) == BuildTarget::host);
  CHECK(build_target(Device::gpu, DeviceMode::gpu) == BuildTarget::cuda);
  CHECK(build_target(Device::gpu, DeviceMode::sim) == BuildTarget::sim);
  CHECK(build_target(Device::gpu, DeviceMode::none) == BuildTarget::sim);  // its CPU tests
}
