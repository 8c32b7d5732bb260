// The physical floor of a GPU performance test: below half of the time this device needs
// for the declared bytes or flops, a median is work skipped, not a fast kernel.
#include <catch2/catch.hpp>

#include "grading/physical_floor.hpp"

using namespace parlab::grader;

namespace {
DeviceInfo h100_like() {
  DeviceInfo d;
  d.mode = DeviceMode::gpu;
  d.bandwidth_gbs = 3000;   // read + write bytes per second of a device-to-device copy
  d.sgemm_gflops = 50000;
  return d;
}
}  // namespace

TEST_CASE("the floor is the larger of the memory and the compute time") {
  const auto memory = physical_floor(h100_like(), 3e9, 1e9);  // 1 ms of bytes, 0.02 ms of flops
  REQUIRE(memory);
  CHECK(memory->bound == RooflineBound::memory);
  CHECK(memory->seconds == Approx(1e-3));
  const auto compute = physical_floor(h100_like(), 1e6, 1e12);  // 20 ms of flops
  REQUIRE(compute);
  CHECK(compute->bound == RooflineBound::compute);
  CHECK(compute->seconds == Approx(0.02));
}

TEST_CASE("no floor without declared work or a measured peak") {
  CHECK_FALSE(physical_floor(h100_like(), 0, 0));
  DeviceInfo unmeasured;
  CHECK_FALSE(physical_floor(unmeasured, 3e9, 1e12));
}

TEST_CASE("a median at 60% of the floor stands, one at 40% is faster than the GPU can go") {
  const auto floor = physical_floor(h100_like(), 3e9, 0);
  REQUIRE(floor);
  // An honest kernel at full bandwidth, or even 1.6x (the probe's copy is not the best
  // kernel), is not refused.
  CHECK_FALSE(below_floor_sentence(*floor, 1e-3));
  CHECK_FALSE(below_floor_sentence(*floor, 0.6e-3));
  const auto said = below_floor_sentence(*floor, 0.4e-3);
  REQUIRE(said);
  CHECK_THAT(*said, Catch::Contains("faster than this GPU can go"));
  CHECK_THAT(*said, Catch::Contains("3000 GB/s"));
  CHECK_THAT(*said, Catch::Contains("earns nothing"));
}

TEST_CASE("a replayed answer (a call that does nothing) breaks the floor") {
  const auto floor = physical_floor(h100_like(), 3e9, 0);
  REQUIRE(floor);
  CHECK(below_floor_sentence(*floor, 5e-6));  // a launch and a return
}
