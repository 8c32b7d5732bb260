// The device-mode seam: which mode grades a performance test its own way.
#include <catch2/catch.hpp>

#include "grading/mode_extras.hpp"
#include "grading/sim_extras.hpp"

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

TEST_CASE("mode extras: only the simulator grades a GPU performance test its own way",
          "[grading][steps]") {
  TestSpec counted = gpu_test();
  counted.kind = TestKind::performance;
  counted.dataset = "large";
  counted.warmup = 2;
  counted.repeat = 5;
  counted.sim_check = SimCheckSpec{.counter = SimCounter::global_bytes_per_output, .dataset = "small"};
  TestSpec cpu = counted;
  cpu.device = Device::cpu;
  TestSpec plain = gpu_test();
  plain.kind = TestKind::performance;
  for (DeviceMode mode : {DeviceMode::host, DeviceMode::gpu, DeviceMode::none}) {
    CHECK_FALSE(make_mode_extras(mode)->grades_performance(counted));
  }
  const std::unique_ptr<ModeExtras> sim = make_mode_extras(DeviceMode::sim);
  CHECK(sim->grades_performance(counted));
  CHECK_FALSE(sim->grades_performance(cpu));
  CHECK_FALSE(sim->grades_performance(plain));
  const TestSpec small = sim_check_test(counted);
  CHECK(small.dataset == "small");
  CHECK(small.warmup == 0);
  CHECK(small.repeat == 1);
  CHECK(small.task == counted.task);
}
