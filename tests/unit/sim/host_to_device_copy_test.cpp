// Asynchronous copies to the device from page-locked memory read their source as late
// as CUDA allows (copies/deferred_copies): a host write into the source before the
// synchronization that orders the copy is a finding naming its line and the copy's, and
// the device gets the new bytes, as a GPU may; reads, neighbouring bytes, writes after
// the synchronization, device work after the copy and pageable sources are unaffected
// (fixtures/host_to_device_copies.cu).
#include <catch2/catch.hpp>
#include <string>

#include "sim_test_support.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::Matches;

namespace {

sim_test::ProgramOutcome run_case(const std::string& name) {
  return sim_test::run_program("sim_fixture_host_to_device_copies", name);
}

bool has_finding(const sim_test::ProgramOutcome& outcome) {
  return outcome.output.find("host code") != std::string::npos;
}

// The number printed after `label` in the case's output.
std::string number_after(const std::string& output, const std::string& label) {
  const std::size_t at = output.find(label);
  if (at == std::string::npos) return "(no " + label + ")";
  return std::to_string(std::stoi(output.substr(at + label.size())));
}

}  // namespace

TEST_CASE("a write into the source before the synchronization is a finding naming both "
          "lines, and the device gets the new bytes", "[sim][streams][h2d]") {
  const auto outcome = run_case("write_early");
  INFO(outcome.output);
  CHECK(outcome.exit_code == 0);
  CHECK_THAT(outcome.output, Contains("write_early: 99 "));
  const std::string copy_line = number_after(outcome.output, "copy line ");
  CHECK_THAT(outcome.output,
             Matches("(.|\n)*host code wrote bytes \\[0, 1024\\) of a pinned buffer of 2048 bytes "
                     "\\(cudaMallocHost\\) at host_to_device_copies\\.cu:[0-9]+, the source of the "
                     "cudaMemcpyAsync to the device on stream #1 (.|\n)*"));
  CHECK_THAT(outcome.output, Contains("issued at host_to_device_copies.cu:" + copy_line +
                                      ", before that copy completed"));
  CHECK_THAT(outcome.output, Contains("the simulator sent the new bytes"));
}

TEST_CASE("a write after cudaStreamSynchronize is fine: the device keeps the copy's bytes",
          "[sim][streams][h2d]") {
  const auto outcome = run_case("write_synced");
  INFO(outcome.output);
  CHECK(outcome.exit_code == 0);
  CHECK_THAT(outcome.output, Contains("write_synced: 15 99"));
  CHECK_FALSE(has_finding(outcome));
}

TEST_CASE("reading the source, and writing other bytes of its pages, while the copy is "
          "pending is fine", "[sim][streams][h2d]") {
  const auto outcome = run_case("read_pending");
  INFO(outcome.output);
  CHECK(outcome.exit_code == 0);
  CHECK_THAT(outcome.output, Contains("read_pending: 15 15 7"));
  CHECK_FALSE(has_finding(outcome));
}

TEST_CASE("device work after the copy sees its bytes: a kernel on its stream, a device copy",
          "[sim][streams][h2d]") {
  const auto kernel = run_case("kernel_same_stream");
  INFO(kernel.output);
  CHECK(kernel.exit_code == 0);
  CHECK_THAT(kernel.output, Contains("kernel_same_stream: 16"));
  CHECK_FALSE(has_finding(kernel));
  const auto copy = run_case("memcpy_after_copy");
  INFO(copy.output);
  CHECK_THAT(copy.output, Contains("memcpy_after_copy: 15"));
  CHECK_FALSE(has_finding(copy));
}

TEST_CASE("a write after a kernel needed the copy, before the synchronization, is still a "
          "finding", "[sim][streams][h2d]") {
  const auto outcome = run_case("write_after_launch");
  INFO(outcome.output);
  CHECK(outcome.exit_code == 0);
  CHECK_THAT(outcome.output, Contains("write_after_launch: 15 16"));
  CHECK_THAT(outcome.output, Contains("the source of the cudaMemcpyAsync to the device"));
  CHECK_THAT(outcome.output, Contains("a kernel had already needed the copy's bytes"));
}

TEST_CASE("from pageable memory the copy is synchronous", "[sim][streams][h2d]") {
  const auto outcome = run_case("pageable");
  INFO(outcome.output);
  CHECK(outcome.exit_code == 0);
  CHECK_THAT(outcome.output, Contains("pageable: 3"));
  CHECK_FALSE(has_finding(outcome));
}

TEST_CASE("two pending copies from one buffer: one finding each, both send the new bytes",
          "[sim][streams][h2d]") {
  const auto outcome = run_case("two_copies");
  INFO(outcome.output);
  CHECK(outcome.exit_code == 0);
  CHECK_THAT(outcome.output, Contains("two_copies: 99 99 "));
  const std::string lines = outcome.output.substr(outcome.output.find("copy lines ") + 11);
  const std::string first = std::to_string(std::stoi(lines));
  const std::string second = std::to_string(std::stoi(lines.substr(lines.find(' ') + 1)));
  CHECK_THAT(outcome.output, Contains("on stream #1 (streams numbered in creation order) issued at "
                                      "host_to_device_copies.cu:" + first));
  CHECK_THAT(outcome.output, Contains("on the default stream issued at host_to_device_copies.cu:" + second));
}

TEST_CASE("cudaFreeHost of a pending copy's source completes the copy first",
          "[sim][streams][h2d]") {
  const auto outcome = run_case("free_pending");
  INFO(outcome.output);
  CHECK(outcome.exit_code == 0);
  CHECK_THAT(outcome.output, Contains("free_pending: 15"));
  CHECK_FALSE(has_finding(outcome));
}
