// A kernel's writes to managed memory reach the host only at a synchronization
// (runtime/managed_kernel_writes): an early host access sees the bytes from before the
// kernel and is a finding naming the kernel; a synchronization, later device work and
// memory the kernel did not write are unaffected (fixtures/managed_writes.cu).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>

#include "sim_test_support.hpp"

using Catch::Matchers::Contains;

namespace {

sim_test::ProgramOutcome run_case(const std::string& name) {
  setenv("PARLAB_SIM_RACE_CHECK", "1", 1);
  auto outcome = sim_test::run_program("sim_fixture_managed_writes", name);
  unsetenv("PARLAB_SIM_RACE_CHECK");
  return outcome;
}

bool has_finding(const sim_test::ProgramOutcome& outcome) {
  return outcome.output.find("host code") != std::string::npos;
}

}  // namespace

TEST_CASE("a host read right after the launch sees the bytes from before the kernel, "
          "and is a finding naming the kernel", "[sim][streams][managed]") {
  const auto outcome = run_case("read_early");
  INFO(outcome.output);
  CHECK(outcome.exit_code == 0);
  CHECK_THAT(outcome.output, Contains("read_early: -1 then 105"));
  CHECK_THAT(outcome.output, Contains("host code read bytes [0, 1024) of managed memory of 1024 bytes "
                                      "(cudaMallocManaged) at "));
  CHECK_THAT(outcome.output, Contains("that kernel fill"));
  CHECK_THAT(outcome.output, Contains("launched on the default stream before it, writes, with no "
                                      "synchronization in between"));
}

TEST_CASE("a host write right after the launch is a finding, the kernel's value lands over it",
          "[sim][streams][managed]") {
  const auto outcome = run_case("write_early");
  INFO(outcome.output);
  CHECK_THAT(outcome.output, Contains("write_early: 105"));
  CHECK_THAT(outcome.output, Contains("host code wrote bytes [0, 1024) of managed memory"));
}

TEST_CASE("after a synchronization the host sees the kernel's writes, with no finding",
          "[sim][streams][managed]") {
  for (const char* name : {"read_synced", "stream_synced"}) {
    const auto outcome = run_case(name);
    INFO(outcome.output);
    CHECK(outcome.exit_code == 0);
    CHECK_THAT(outcome.output, Contains(std::string(name) + ": 105"));
    CHECK_FALSE(has_finding(outcome));
  }
}

TEST_CASE("device work after the kernel sees its writes: the next launch and cudaMemcpy",
          "[sim][streams][managed]") {
  const auto kernels = run_case("kernel_after_kernel");
  INFO(kernels.output);
  CHECK_THAT(kernels.output, Contains("kernel_after_kernel: 106"));
  CHECK_FALSE(has_finding(kernels));
  const auto copy = run_case("memcpy_after_kernel");
  INFO(copy.output);
  CHECK_THAT(copy.output, Contains("memcpy_after_kernel: 105 105"));
  CHECK_FALSE(has_finding(copy));
}

TEST_CASE("managed memory the kernel does not write stays usable while it runs",
          "[sim][streams][managed]") {
  const auto outcome = run_case("other_allocation");
  INFO(outcome.output);
  CHECK_THAT(outcome.output, Contains("other_allocation: 7 105"));
  CHECK_FALSE(has_finding(outcome));
}

TEST_CASE("atomics on managed memory are left as they are", "[sim][streams][managed]") {
  const auto outcome = run_case("atomic_counter");
  INFO(outcome.output);
  CHECK_THAT(outcome.output, Contains("atomic_counter: 32"));
  CHECK_FALSE(has_finding(outcome));
}
