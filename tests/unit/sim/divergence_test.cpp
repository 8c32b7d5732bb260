// The branch-divergence counter on canonical kernels with known answers
// (fixtures/counters_divergence.cu, <<<2, 128>>>: two sampled blocks of four warps).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "counters/divergence.hpp"
#include "sim_test_support.hpp"

using Catch::Matchers::Contains;
using parlab_sim::detail::warp_block_runs;

namespace {

sim_test::ProgramOutcome run_counted(const std::string& kernel) {
  setenv("PARLAB_SIM_COUNTERS", "2", 1);
  auto outcome = sim_test::run_program("sim_fixture_counters_divergence", kernel);
  unsetenv("PARLAB_SIM_COUNTERS");
  return outcome;
}

// The kernel's line in PARLAB_SIM_COUNTERS_FILE.
std::string summary_line(const std::string& kernel) {
  const std::string file = (std::filesystem::temp_directory_path() /
                            ("divergence-file-" + std::to_string(::getpid())))
                               .string();
  std::filesystem::remove(file);
  setenv("PARLAB_SIM_COUNTERS_FILE", file.c_str(), 1);
  run_counted(kernel);
  unsetenv("PARLAB_SIM_COUNTERS_FILE");
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  std::filesystem::remove(file);
  return line;
}

}  // namespace

TEST_CASE("a warp's runs of a code block: the most and fewest over its present lanes",
          "[sim][counters][divergence]") {
  std::uint32_t runs[32] = {};
  for (auto& r : runs) r = 3;
  CHECK_FALSE(warp_block_runs(runs, 32).divergent());
  runs[31] = 0;  // the last lane skipped it
  CHECK(warp_block_runs(runs, 32).divergent());
  CHECK(warp_block_runs(runs, 32).most == 3);
  CHECK(warp_block_runs(runs, 32).fewest == 0);
  CHECK_FALSE(warp_block_runs(runs, 31).divergent());  // a partial warp: lane 31 is absent
  runs[0] = 5;  // a loop one lane ran more often
  CHECK(warp_block_runs(runs, 31).divergent());
  CHECK(warp_block_runs(runs, 31).most - warp_block_runs(runs, 31).fewest == 2);
}

TEST_CASE("a launch's divergence adds the student's code blocks only; divergent warps are "
          "counted once", "[sim][counters][divergence]") {
  using parlab_sim::detail::CodeBlockTotals;
  int student_a = 0, student_b = 0, header = 0;
  std::unordered_map<const void*, CodeBlockTotals> blocks;
  blocks[&student_a] = CodeBlockTotals{8, 2, 8, 2, 0b11};          // warps 0 and 1
  blocks[&student_b] = CodeBlockTotals{8, 1, 40, 31, 0b1};         // warp 0 again
  blocks[&header] = CodeBlockTotals{8, 8, 8, 8, 0b11111111};       // __shared__ registration
  const std::unordered_map<const void*, bool> counted = {
      {&student_a, true}, {&student_b, true}, {&header, false}};
  const auto s = parlab_sim::detail::summarize_divergence(blocks, 8, counted);
  CHECK(s.warps == 8);
  CHECK(s.divergent_warps == 2);
  CHECK(s.warp_blocks == 16);
  CHECK(s.divergent_warp_blocks == 3);
  CHECK(s.warp_block_runs == 48);
  CHECK(s.divergent_runs == 33);
}

TEST_CASE("if (threadIdx.x % 2) diverges in every warp: both branches run by half the lanes",
          "[sim][counters][divergence]") {
  const auto outcome = run_counted("odd_lanes");
  INFO(outcome.output);
  CHECK(outcome.exit_code == 0);
  // Per warp: entry, then, else, join; then and else run by half the lanes.
  CHECK_THAT(outcome.output, Contains("kernel odd_lanes, divergence: 16 of 32 code blocks run by "
                                      "a warp were run by only some of its lanes (50%)"));
  CHECK_THAT(outcome.output, Contains("8 of 8 sampled warps divergent; worst at "
                                      "counters_divergence.cu:12, counters_divergence.cu:14"));
  CHECK_THAT(outcome.output, Contains("warning: warp divergence in kernel odd_lanes: 50% of the "
                                      "code blocks a warp ran were run by only some of its threads"));
}

TEST_CASE("if ((threadIdx.x / 32) % 2) is warp-uniform: no divergence, no finding",
          "[sim][counters][divergence]") {
  const auto outcome = run_counted("odd_warps");
  INFO(outcome.output);
  CHECK_THAT(outcome.output, Contains("kernel odd_warps, divergence: 0 of 24 code blocks"));
  CHECK_THAT(outcome.output, Contains("0 of 8 sampled warps divergent"));
  CHECK_THAT(outcome.output, !Contains("warning"));
}

TEST_CASE("a loop whose trip count depends on the lane diverges; one that depends on the warp "
          "does not", "[sim][counters][divergence]") {
  const auto lane = run_counted("lane_loop");
  INFO(lane.output);
  // Lane k runs the body k times: the body is divergent in each warp, 31 of its 32 warp
  // runs with idle lanes (the most is 31, the fewest 0).
  CHECK_THAT(lane.output, Contains("kernel lane_loop, divergence: 8 of 24 code blocks"));
  CHECK_THAT(lane.output, Contains("8 of 8 sampled warps divergent; worst at counters_divergence.cu:30"));
  CHECK_THAT(lane.output, Contains("warning: warp divergence in kernel lane_loop"));
  const auto warp = run_counted("warp_loop");
  INFO(warp.output);
  CHECK_THAT(warp.output, Contains("kernel warp_loop, divergence: 0 of 24 code blocks"));
  CHECK_THAT(warp.output, !Contains("warning"));
}

TEST_CASE("a kernel without branches has no divergence", "[sim][counters][divergence]") {
  const auto outcome = run_counted("no_branch");
  INFO(outcome.output);
  CHECK_THAT(outcome.output, Contains("kernel no_branch, divergence: 0 of 8 code blocks"));
  CHECK_THAT(outcome.output, !Contains("warning"));
}

TEST_CASE("the simulator's own branches are not the student's: __shared__ registration and "
          "an atomic's compare-and-swap loop count no divergence", "[sim][counters][divergence]") {
  const auto outcome = run_counted("shared_and_atomic");
  INFO(outcome.output);
  CHECK_THAT(outcome.output, Contains("kernel shared_and_atomic, divergence: 0 of "));
  CHECK_THAT(outcome.output, Contains("0 of 8 sampled warps divergent"));
  CHECK_THAT(outcome.output, !Contains("warning"));
}

TEST_CASE("the counters file gets the divergence totals of each launch",
          "[sim][counters][divergence]") {
  CHECK_THAT(summary_line("odd_lanes"),
             Contains("\"warps\": 8, \"divergent_warps\": 8, \"warp_blocks\": 32, "
                      "\"divergent_warp_blocks\": 16, \"warp_block_runs\": 32, "
                      "\"divergent_runs\": 16}"));
  CHECK_THAT(summary_line("lane_loop"),
             Contains("\"divergent_warps\": 8, \"warp_blocks\": 24, \"divergent_warp_blocks\": 8, "
                      "\"warp_block_runs\": 264, \"divergent_runs\": 248}"));
  CHECK_THAT(summary_line("odd_warps"), Contains("\"divergent_warps\": 0, \"warp_blocks\": 24, "
                                                 "\"divergent_warp_blocks\": 0,"));
}

TEST_CASE("without PARLAB_SIM_COUNTERS no divergence is counted", "[sim][counters][divergence]") {
  const auto outcome = sim_test::run_program("sim_fixture_counters_divergence", "odd_lanes");
  CHECK(outcome.output == "odd_lanes: done\n");
}
