// The branch-divergence counter on canonical kernels with known answers
// (fixtures/counters_divergence.cu, <<<2, 128>>>: two sampled blocks of four warps).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>
#include <unistd.h>

#include "counters/code_block_length.hpp"
#include "counters/divergence.hpp"
#include "exec/sampled_blocks.hpp"
#include "grading/divergence_hint.hpp"
#include "report/source_lines.hpp"
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

// The counters file of a run of `kernel`: its launch line and, at exit, its records.
std::string counters_file_of(const std::string& kernel) {
  const std::string file = (std::filesystem::temp_directory_path() /
                            ("divergence-records-" + std::to_string(::getpid())))
                               .string();
  std::filesystem::remove(file);
  setenv("PARLAB_SIM_COUNTERS_FILE", file.c_str(), 1);
  run_counted(kernel);
  unsetenv("PARLAB_SIM_COUNTERS_FILE");
  std::ifstream in(file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(file);
  return text;
}

// The grader's divergence hints (grading/divergence_hint) for a run of `kernel`, from the
// facts the runtime wrote; the lines named by addr2line on the program at the records'
// offsets (the grader's table holds the same), shortened to the file's name.
std::vector<parlab::grader::SimFinding> grader_hints(const std::string& kernel) {
  const std::string text = counters_file_of(kernel);
  const std::string program = std::string(PARLAB_SIM_PROGRAMS_DIR) + "/sim_fixture_counters_divergence";
  const parlab::grader::InstructionPlaceNamer place_of = [&program](std::uint64_t offset) {
    const auto located = parlab_sim::detail::locate_in_object(program, {offset});
    const auto it = located.find(offset);
    if (it == located.end() || it->second.library || it->second.line.empty()) return std::string();
    return std::filesystem::path(it->second.line).filename().string();
  };
  return parlab::grader::divergence_findings(parlab::grader::sim_counters_by_kernel(text),
                                             parlab::grader::parse_code_block_records(text), place_of);
}

// The kernel's line in PARLAB_SIM_COUNTERS_FILE (its first).
std::string summary_line(const std::string& kernel) {
  const std::string text = counters_file_of(kernel);
  return text.substr(0, text.find('\n'));
}

}  // namespace

TEST_CASE("a warp's runs of a code block: the most and fewest over its present lanes",
          "[sim][counters][divergence]") {
  std::uint32_t runs[32] = {};
  for (auto& r : runs) r = 3;
  CHECK_FALSE(warp_block_runs(runs, 32).divergent());
  runs[31] = runs[30] = runs[29] = 0;  // three lanes skipped it
  CHECK(warp_block_runs(runs, 32).divergent());
  CHECK(warp_block_runs(runs, 32).most == 3);
  CHECK(warp_block_runs(runs, 32).fewest == 0);
  CHECK_FALSE(warp_block_runs(runs, 29).divergent());  // a partial warp: lanes 29-31 are absent
  runs[0] = runs[1] = runs[2] = 5;  // a loop three lanes ran more often
  CHECK(warp_block_runs(runs, 29).divergent());
  CHECK(warp_block_runs(runs, 29).most - warp_block_runs(runs, 29).fewest == 2);
}

TEST_CASE("two code blocks are the sides of one branch when every lane ran one or the other",
          "[sim][counters][divergence]") {
  using parlab_sim::detail::sides_of_one_branch;
  std::uint32_t leader[32] = {}, others[32] = {};
  for (unsigned lane = 0; lane < 32; ++lane) {
    leader[lane] = lane % 5 == 0 ? 3 : 1;  // leaders in some rounds of four
    others[lane] = 4 - leader[lane];
  }
  CHECK(sides_of_one_branch(others, leader, 32));
  others[7] = 2;  // lane 7 skipped both once: not one branch
  CHECK_FALSE(sides_of_one_branch(others, leader, 32));
  CHECK(sides_of_one_branch(others, leader, 7));  // lane 7 absent
  const std::uint32_t none[32] = {};
  CHECK_FALSE(sides_of_one_branch(none, none, 32));
  // The same path: lane by lane the same runs.
  using parlab_sim::detail::same_path;
  CHECK(same_path(leader, leader, 32));
  CHECK_FALSE(same_path(leader, others, 32));
  CHECK_FALSE(same_path(none, none, 32));
}

TEST_CASE("side work of one or two lanes per warp is not divergence, of half the lanes it is",
          "[sim][counters][divergence]") {
  std::uint32_t runs[32] = {};
  runs[0] = 1;  // a halo element, a leader's atomic
  CHECK_FALSE(warp_block_runs(runs, 32).divergent());
  runs[16] = 1;  // the first thread of each of a 16-wide tile's two rows
  CHECK_FALSE(warp_block_runs(runs, 32).divergent());
  runs[8] = 1;  // three lanes: a branch
  CHECK(warp_block_runs(runs, 32).divergent());
  for (auto& r : runs) r = 4;
  runs[0] = 0;  // the lane at the data's edge skips the update
  CHECK_FALSE(warp_block_runs(runs, 32).divergent());
  for (unsigned lane = 0; lane < 32; lane += 2) runs[lane] = 0;  // odd lanes only
  CHECK(warp_block_runs(runs, 32).divergent());
  // A warp of four lanes has no side work: one lane of four is a quarter of it.
  std::uint32_t few[32] = {1, 0, 0, 0};
  CHECK(warp_block_runs(few, 4).divergent());
}

TEST_CASE("a launch's divergence adds the student's code blocks only, divergent warps are "
          "counted once", "[sim][counters][divergence]") {
  using parlab_sim::detail::CodeBlockTotals;
  int student_a = 0, student_b = 0, header = 0;
  std::unordered_map<const void*, CodeBlockTotals> blocks;
  blocks[&student_a] = CodeBlockTotals{8, 2, 8, 2, 0b11};          // warps 0 and 1
  blocks[&student_b] = CodeBlockTotals{8, 1, 40, 31, 0b1};         // warp 0 again
  blocks[&header] = CodeBlockTotals{8, 8, 8, 8, 0b11111111};       // __shared__ registration
  const std::unordered_map<const void*, bool> counted = {
      {&student_a, true}, {&student_b, true}, {&header, false}};
  const std::unordered_map<const void*, std::uint32_t> length_of = {
      {&student_a, 10}, {&student_b, 100}, {&header, 1000}};
  const auto s = parlab_sim::detail::summarize_divergence(blocks, 8, counted, length_of);
  CHECK(s.warps == 8);
  CHECK(s.divergent_warps == 2);
  CHECK(s.warp_blocks == 16);
  CHECK(s.divergent_warp_blocks == 3);
  CHECK(s.warp_block_runs == 48);
  CHECK(s.divergent_runs == 33);
  // The work: length x warp runs, the header's left out.
  CHECK(s.code_bytes == 10 * 8 + 100 * 40);
  CHECK(s.divergent_code_bytes == 10 * 2 + 100 * 31);
  // A block whose length is not known weighs kUnknownCodeBlockBytes.
  const auto unknown = parlab_sim::detail::summarize_divergence(blocks, 8, counted, {});
  CHECK(unknown.code_bytes == parlab_sim::detail::kUnknownCodeBlockBytes * 48);
}

TEST_CASE("if (threadIdx.x % 2) diverges in every warp: both branches run by half the lanes",
          "[sim][counters][divergence]") {
  const auto outcome = run_counted("odd_lanes");
  INFO(outcome.output);
  CHECK(outcome.exit_code == 0);
  // Per warp: entry, then, else, join; then and else run by half the lanes. By work (their
  // length in bytes, g++'s code here) they are a smaller share: the index arithmetic and
  // the loads are in the entry block.
  CHECK_THAT(outcome.output, Contains("kernel odd_lanes, divergence: 16 of 32 code blocks run by "
                                      "a warp were run by only some of its lanes (50%)"));
  CHECK_THAT(outcome.output, Contains("8 of 8 sampled warps divergent; worst at "));
  CHECK_THAT(outcome.output, Contains("counters_divergence.cu:12"));
  CHECK_THAT(outcome.output, Contains("counters_divergence.cu:14"));
  // The runtime judges nothing: the hint is the grader's, from the run's facts.
  CHECK_THAT(outcome.output, !Contains("warning"));
  const auto hints = grader_hints("odd_lanes");
  REQUIRE(hints.size() == 1);
  CHECK(hints[0].kind == "warp_divergence");
  CHECK_THAT(hints[0].summary, Contains("warp divergence in kernel odd_lanes at counters_divergence.cu:1"));
  CHECK_THAT(hints[0].message, Contains("counters_divergence.cu:12"));
  CHECK_THAT(hints[0].message, Contains("counters_divergence.cu:14"));
  CHECK_THAT(hints[0].message, Contains("of the work its warps ran (code weighted by length and "
                                        "runs) was run by only some of their threads"));
}

TEST_CASE("if ((threadIdx.x / 32) % 2) is warp-uniform: no divergence, no finding",
          "[sim][counters][divergence]") {
  const auto outcome = run_counted("odd_warps");
  INFO(outcome.output);
  CHECK_THAT(outcome.output, Contains("kernel odd_warps, divergence: 0 of 24 code blocks"));
  CHECK_THAT(outcome.output, Contains("0 of 8 sampled warps divergent"));
  CHECK_THAT(outcome.output, !Contains("warning"));
  CHECK(grader_hints("odd_warps").empty());
  CHECK(counters_file_of("odd_warps").find("\"code_block\"") == std::string::npos);  // no divergent block
}

TEST_CASE("a loop whose trip count depends on the lane diverges, one that depends on the warp "
          "does not", "[sim][counters][divergence]") {
  const auto lane = run_counted("lane_loop");
  INFO(lane.output);
  // Lane k runs the body k times: the body is divergent in each warp, 31 of its 32 warp
  // runs with idle lanes (the most is 31, the fewest 0).
  CHECK_THAT(lane.output, Contains("kernel lane_loop, divergence: 8 of 24 code blocks"));
  CHECK_THAT(lane.output, Contains("8 of 8 sampled warps divergent; worst at counters_divergence.cu:30"));
  const auto lane_hints = grader_hints("lane_loop");
  REQUIRE(lane_hints.size() == 1);
  CHECK(lane_hints[0].summary == "warp divergence in kernel lane_loop at counters_divergence.cu:30");
  const auto warp = run_counted("warp_loop");
  INFO(warp.output);
  CHECK_THAT(warp.output, Contains("kernel warp_loop, divergence: 0 of 24 code blocks"));
  CHECK(grader_hints("warp_loop").empty());
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

TEST_CASE("a halo tile's edge loads and warp leaders' atomics are side work: no finding, an "
          "interleaved reduction's adds are divergent work", "[sim][counters][divergence]") {
  for (const char* kernel : {"halo_edges", "leader_atomic", "aggregated_keys"}) {
    const auto outcome = run_counted(kernel);
    INFO(outcome.output);
    CHECK(outcome.exit_code == 0);
    CHECK_THAT(outcome.output, Contains(std::string("kernel ") + kernel + ", divergence: 0 of "));
    CHECK(grader_hints(kernel).empty());
  }
  const auto interleaved = run_counted("interleaved_sum");
  INFO(interleaved.output);
  CHECK_THAT(interleaved.output, Contains("8 of 8 sampled warps divergent; worst at "
                                          "counters_divergence.cu:101"));
  const auto interleaved_hints = grader_hints("interleaved_sum");
  REQUIRE(interleaved_hints.size() == 1);
  CHECK(interleaved_hints[0].summary == "warp divergence in kernel interleaved_sum at counters_divergence.cu:101");
}

TEST_CASE("the counters file gets the divergence totals of each launch",
          "[sim][counters][divergence]") {
  CHECK_THAT(summary_line("odd_lanes"),
             Contains("\"warps\": 8, \"divergent_warps\": 8, \"warp_blocks\": 32, "
                      "\"divergent_warp_blocks\": 16, \"warp_block_runs\": 32, "
                      "\"divergent_runs\": 16, \"code_bytes\": "));
  CHECK_THAT(summary_line("lane_loop"),
             Contains("\"divergent_warps\": 8, \"warp_blocks\": 24, \"divergent_warp_blocks\": 8, "
                      "\"warp_block_runs\": 264, \"divergent_runs\": 248, \"code_bytes\": "));
  CHECK_THAT(summary_line("odd_warps"), Contains("\"divergent_code_bytes\": 0}"));
  CHECK_THAT(summary_line("lane_loop"), !Contains("\"divergent_code_bytes\": 0}"));
  CHECK_THAT(summary_line("odd_warps"), Contains("\"divergent_warps\": 0, \"warp_blocks\": 24, "
                                                 "\"divergent_warp_blocks\": 0,"));
}

TEST_CASE("without PARLAB_SIM_COUNTERS no divergence is counted", "[sim][counters][divergence]") {
  const auto outcome = sim_test::run_program("sim_fixture_counters_divergence", "odd_lanes");
  CHECK(outcome.output == "odd_lanes: done\n");
}

TEST_CASE("the launch lambda's code blocks are told from the kernel's by their frames' functions",
          "[sim][divergence]") {
  using parlab_sim::detail::AddressFrame;
  using parlab_sim::detail::is_launch_thunk;
  using parlab_sim::detail::launch_lambda_place;
  const std::string invoke =
      "__invoke_impl<void, const lab03::saxpy(float, float const*, float const*, float*, int)::"
      "<lambda(auto:21&& ...)>&, float const&, float* const&, int const&>";
  const std::string run_thread =
      "parlab_sim::detail::LaunchState<lab03::saxpy(float, float const*, float const*, float*, "
      "int)::{lambda((auto:1&&)...)#1}, std::tuple<float> >::run_thread(void const*)";
  // A kernel block inlined into the lambda: the kernel's; its lambda frame is the launch line.
  const std::vector<AddressFrame> kernel = {{"lab03::saxpy_kernel(float, float const*, float const*, float*, int)", "k.cu:31"},
                                            {"operator()<float const&, float* const&, int const&>", "k.cu:40"},
                                            {invoke, ""},
                                            {"run_thread", "launch.hpp:77"}};
  CHECK(launch_lambda_place(kernel) == "k.cu:40");
  const std::set<std::string> launches = {"k.cu:40"};
  CHECK_FALSE(is_launch_thunk(kernel, launches));
  // The lambda's own blocks (where g++ puts the exits of a kernel it inlined there).
  CHECK(is_launch_thunk({{"operator()<float const&, float* const&, int const&>", "k.cu:40"}, {invoke, ""}}, launches));
  CHECK(is_launch_thunk({{"operator()<float*&>", "k.cu:40"}, {run_thread, ""}}, launches));
  // run_thread's own code: at the launch line the lambda's, at a kernel line the kernel's.
  CHECK(is_launch_thunk({{run_thread, "k.cu:40"}}, launches));
  CHECK_FALSE(is_launch_thunk({{run_thread, "k.cu:30"}}, launches));
  // The lambda not inlined: its own name.
  CHECK(is_launch_thunk({{"lab03::saxpy(float, float const*, float const*, float*, int)::"
                          "{lambda((auto:1&&)...)#1}::operator()<float&, float const*&>"
                          "(float&, float const*&) const", "k.cu:40"}}, {}));
  // A student's functor called from a kernel is the student's code.
  CHECK_FALSE(is_launch_thunk({{"operator()<float>", "k.cu:12"},
                               {"lab04::reduce_kernel(float const*, int, float*)", "k.cu:20"}}, launches));
  CHECK_FALSE(is_launch_thunk({}, launches));
}

TEST_CASE("sampled blocks are drawn by region: two block shapes sample the same place",
          "[sim][counters]") {
  using parlab_sim::detail::block_at_drawn_point;
  using parlab_sim::detail::draw_sampled_blocks;
  // A 257 x 129 grid in 32 x 8 blocks (the reference's) and in 16 x 16 blocks (a
  // handout-style solution): the same seed lands on the same point of the data.
  const dim3 wide_grid(9, 17), wide(32, 8), square_grid(17, 9), square(16, 16);
  int same_boundary = 0;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    const std::uint64_t a = block_at_drawn_point(seed, wide_grid, wide);
    const std::uint64_t b = block_at_drawn_point(seed, square_grid, square);
    REQUIRE(a < 9 * 17);
    REQUIRE(b < 17 * 9);
    // The block's first thread in data coordinates: within one block of each other.
    const long ax = static_cast<long>(a % 9) * 32, ay = static_cast<long>(a / 9) * 8;
    const long bx = static_cast<long>(b % 17) * 16, by = static_cast<long>(b / 17) * 16;
    CHECK(std::labs(ax - bx) <= 48);  // the padded extents differ by under a block
    CHECK(std::labs(ay - by) <= 24);
    const bool a_edge = a % 9 == 0 || a % 9 == 8 || a / 9 == 0 || a / 9 == 16;
    const bool b_edge = b % 17 == 0 || b % 17 == 16 || b / 17 == 0 || b / 17 == 8;
    same_boundary += a_edge == b_edge;
  }
  // At the grid's edge for both, or inside for both, but where the edge blocks' widths
  // differ (blocks drawn by number agree about 55% of the time).
  INFO(same_boundary);
  CHECK(same_boundary >= 150);
  std::uint64_t sampled[2];
  draw_sampled_blocks(7, dim3(4), dim3(256), 1, sampled);
  CHECK(sampled[0] < 4);
  CHECK(sampled[1] < 4);
  CHECK(sampled[0] != sampled[1]);
  draw_sampled_blocks(7, dim3(1), dim3(256), 0, sampled);
  CHECK(sampled[0] == 0);
  CHECK(sampled[1] == ~std::uint64_t{0});
}
