// cudaMalloc & co. return 256-byte aligned memory, as CUDA does (a float4 path
// runs for every size, as on a GPU), and an access into the slack between an
// allocation's end and its guard page is still reported where the access hooks run
// (memory/guarded_mapping.hpp, exec/race_check.cpp).
#include <catch2/catch.hpp>
#include <cstdio>
#include <regex>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "parlab_sim/exit_codes.hpp"
#include "memory/device_pages.hpp"
#include "sim_test_support.hpp"

using Catch::Matchers::Contains;

namespace {

constexpr std::size_t kSizes[] = {1, 3, 4, 12, 100, 255, 256, 257, 4097, std::size_t{1} << 20};

bool aligned256(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 256 == 0; }

// The bytes from `end` to the next multiple of 256: the slack, all 0xff (the fill).
bool slack_is_filled(const void* begin, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(begin);
  for (std::size_t i = bytes; i % 256 != 0; ++i) {
    if (p[i] != 0xff) return false;
  }
  return true;
}

sim_test::ProgramOutcome run_slack(const std::string& arguments, const char* setting = nullptr) {
  if (setting != nullptr) setenv(setting, "1", 1);
  auto outcome = sim_test::run_program("sim_fixture_race_allocation_slack", arguments);
  if (setting != nullptr) unsetenv(setting);
  return outcome;
}

}  // namespace

TEST_CASE("every allocation kind starts 256-byte aligned, whatever its size",
          "[sim][memory][alignment]") {
  for (const std::size_t bytes : kSizes) {
    INFO("bytes = " << bytes);
    void* device = nullptr;
    void* managed = nullptr;
    void* pinned = nullptr;
    void* async = nullptr;
    REQUIRE(cudaMalloc(&device, bytes) == cudaSuccess);
    REQUIRE(cudaMallocManaged(&managed, bytes) == cudaSuccess);
    REQUIRE(cudaMallocHost(&pinned, bytes) == cudaSuccess);
    REQUIRE(cudaMallocAsync(&async, bytes, nullptr) == cudaSuccess);
    CHECK(aligned256(device));
    CHECK(aligned256(managed));
    CHECK(aligned256(pinned));
    CHECK(aligned256(async));
    {
      const parlab_sim::detail::DeviceMemoryOpen open;  // host code may not look otherwise
      CHECK(slack_is_filled(device, bytes));
    }
    cudaFree(device);
    cudaFree(managed);
    cudaFreeHost(pinned);
    cudaFreeAsync(async, nullptr);
  }
  void* pitched = nullptr;
  std::size_t pitch = 0;
  REQUIRE(cudaMallocPitch(&pitched, &pitch, 13, 5) == cudaSuccess);
  CHECK(aligned256(pitched));
  CHECK(pitch % 256 == 0);  // so every row starts aligned too
  cudaFree(pitched);
}

TEST_CASE("memsets and copies stop at an allocation's end, never in its slack",
          "[sim][memory][alignment]") {
  for (const std::size_t bytes : {std::size_t{12}, std::size_t{100}, std::size_t{257}}) {
    INFO("bytes = " << bytes);
    unsigned char* d = nullptr;
    REQUIRE(cudaMalloc(&d, bytes) == cudaSuccess);
    const std::vector<unsigned char> zeros(bytes + 8, 0);
    CHECK(cudaMemset(d, 0, bytes) == cudaSuccess);
    CHECK(cudaMemcpy(d, zeros.data(), bytes, cudaMemcpyHostToDevice) == cudaSuccess);
    {
      const parlab_sim::detail::DeviceMemoryOpen open;  // host code may not look otherwise
      CHECK(slack_is_filled(d, bytes));  // neither touched the slack
      CHECK(d[bytes - 1] == 0);
    }
    // One byte too many, or a pointer into the slack: refused as CUDA refuses them.
    CHECK(cudaMemset(d, 0, bytes + 1) == cudaErrorInvalidValue);
    CHECK(cudaMemcpy(d, zeros.data(), bytes + 1, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
    CHECK(cudaMemcpy(d + bytes + 4, zeros.data(), 4, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
    std::vector<unsigned char> sink(8);
    CHECK(cudaMemcpy(sink.data(), d + bytes + 1, 1, cudaMemcpyDeviceToHost) == cudaErrorInvalidValue);
    CHECK(cudaMemset(d + bytes + 2, 0, 1) == cudaErrorInvalidValue);
    {
      const parlab_sim::detail::DeviceMemoryOpen open;
      CHECK(slack_is_filled(d, bytes));
    }
    cudaGetLastError();
    cudaFree(d);
  }
}

TEST_CASE("a float4 path taken when the input is 16-byte aligned runs for n = 1001",
          "[sim][memory][alignment]") {
  // Before, a 4004-byte allocation started only 4-byte aligned: the scalar path ran.
  const auto outcome = run_slack("float4_sum 1001");
  CHECK(outcome.exit_code == 0);
  CHECK(outcome.output == "float4_sum: float4 path, sum 501501\n");
}

TEST_CASE("an off-by-one write into the slack is reported as the guard page's fault",
          "[sim][faults][alignment]") {
  SECTION("12 bytes") {
    const auto outcome = run_slack("write_past 12", "PARLAB_SIM_RACE_CHECK");
    INFO(outcome.output);
    CHECK(outcome.exit_code == parlab_sim::kExitMemoryFault);
    CHECK_THAT(outcome.output, Contains("parlab-sim: invalid memory write in kernel write_past, "
                                        "block (0,0,0), thread (3,0,0)"));
    CHECK_THAT(outcome.output,
               Contains("just past the end of a device allocation (cudaMalloc) of 12 bytes"));
    CHECK_THAT(outcome.output, Contains("cudaErrorIllegalAddress"));
    CHECK_THAT(outcome.output, !Contains("no fault"));
  }
  SECTION("100 bytes") {
    const auto outcome = run_slack("write_past 100", "PARLAB_SIM_RACE_CHECK");
    INFO(outcome.output);
    CHECK(outcome.exit_code == parlab_sim::kExitMemoryFault);
    CHECK_THAT(outcome.output, Contains("invalid memory write in kernel write_past, block (0,0,0), "
                                        "thread (25,0,0)"));
    CHECK_THAT(outcome.output,
               Contains("just past the end of a device allocation (cudaMalloc) of 100 bytes"));
  }
  SECTION("the report carries the access's code offset, which names its line") {
    const auto outcome = run_slack("write_past 100", "PARLAB_SIM_RACE_CHECK");
    INFO(outcome.output);
    std::smatch offset;
    REQUIRE(std::regex_search(outcome.output, offset,
                              std::regex("\n  at code offset (0x[0-9a-f]+) of the program\n")));
    // The grader resolves it the same way (grading/fault_line), with the line tables of
    // the check build: the off-by-one store's line of the fixture.
    const std::string command = "addr2line -e " + std::string(PARLAB_SIM_PROGRAMS_DIR) +
                                "/sim_fixture_race_allocation_slack " + offset[1].str();
    std::string resolved;
    if (FILE* pipe = popen(command.c_str(), "r")) {
      char buffer[512];
      while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) resolved += buffer;
      pclose(pipe);
    }
    INFO(resolved);
    CHECK_THAT(resolved, Contains("race_allocation_slack.cu:21"));
  }
  SECTION("a read further into the slack names its distance") {
    const auto outcome = run_slack("read_past 100 2", "PARLAB_SIM_RACE_CHECK");
    INFO(outcome.output);
    CHECK(outcome.exit_code == parlab_sim::kExitMemoryFault);
    CHECK_THAT(outcome.output, Contains("invalid memory read in kernel read_at"));
    CHECK_THAT(outcome.output,
               Contains("8 bytes past the end of a device allocation (cudaMalloc) of 100 bytes"));
  }
  SECTION("a read before the start, on the guard page's side of the same page") {
    const auto outcome = run_slack("read_before", "PARLAB_SIM_RACE_CHECK");
    INFO(outcome.output);
    CHECK(outcome.exit_code == parlab_sim::kExitMemoryFault);
    CHECK_THAT(outcome.output,
               Contains("4 bytes before the start of a device allocation (cudaMalloc) of 12 bytes"));
  }
  SECTION("the memory-access counters alone turn the hooks on too") {
    const auto outcome = run_slack("write_past 12", "PARLAB_SIM_COUNTERS");
    INFO(outcome.output);
    CHECK(outcome.exit_code == parlab_sim::kExitMemoryFault);
    CHECK_THAT(outcome.output,
               Contains("just past the end of a device allocation (cudaMalloc) of 12 bytes"));
  }
}

TEST_CASE("without the access hooks only the guard page catches an overflow, as documented",
          "[sim][faults][alignment]") {
  // Like a GPU, which lets a write into its allocation granularity pass.
  const auto slack = run_slack("write_past 12");
  INFO(slack.output);
  CHECK(slack.exit_code == 0);
  CHECK(slack.output == "write_past: no fault\n");
  // A size that is a multiple of 256 ends at the guard page: caught in every run.
  const auto guard = run_slack("write_past 256");
  INFO(guard.output);
  CHECK(guard.exit_code == parlab_sim::kExitMemoryFault);
  CHECK_THAT(guard.output,
             Contains("just past the end of a device allocation (cudaMalloc) of 256 bytes"));
}
