// What a GPU run adds to a result: phases and roofline, nothing elsewhere.
#include <catch2/catch.hpp>

#include "grading/gpu_figures.hpp"

using namespace parlab::grader;

namespace {

TestSpec gpu_test() {
  TestSpec t;
  t.name = "copy";
  t.device = Device::gpu;
  t.points = 10;
  return t;
}

}  // namespace

TEST_CASE("GPU figures: phases and roofline only from a GPU run", "[grading][steps]") {
  TestSpec t = gpu_test();
  t.roofline = RooflineSpec{.bound = RooflineBound::memory, .hint_below = 0.5, .hint = "coalesce"};
  TaskRun run;
  run.samples_s = {0.003, 0.001, 0.002};
  run.phases_s["copy to device"] = {0.5};
  run.work_bytes = 1e9;
  const std::vector<Phase> phases = gpu_phases(DeviceMode::gpu, t, run);
  REQUIRE(phases.size() == 2);
  CHECK(phases[0].name == "kernels");
  CHECK(phases[0].seconds == Approx(0.002));
  CHECK(phases[1].name == "copy to device");
  CHECK(gpu_phases(DeviceMode::sim, t, run).empty());

  DeviceInfo device;
  device.bandwidth_gbs = 1000;
  const std::optional<Roofline> slow = gpu_roofline(DeviceMode::gpu, device, t, run, 0.01);
  REQUIRE(slow);
  CHECK(slow->achieved == Approx(100));  // 1 GB in 10 ms
  CHECK(slow->fraction == Approx(0.1));
  CHECK(slow->hint == "coalesce");
  const std::optional<Roofline> fast = gpu_roofline(DeviceMode::gpu, device, t, run, 0.0015);
  REQUIRE(fast);
  CHECK(fast->hint.empty());
  CHECK_FALSE(gpu_roofline(DeviceMode::sim, device, t, run, 0.01));
  CHECK_FALSE(gpu_roofline(DeviceMode::gpu, DeviceInfo{}, t, run, 0.01));  // peak not measured
}
