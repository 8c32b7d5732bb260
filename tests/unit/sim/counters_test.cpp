// Memory-access counters on canonical kernels with known answers (Nsight Compute's
// definitions): sectors per global request, bank-conflict degree per shared request.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "counters/access_counters.hpp"
#include "sim_test_support.hpp"

using Catch::Matchers::Contains;
using parlab_sim::detail::bank_conflict_degree;
using parlab_sim::detail::ideal_sectors_of;
using parlab_sim::detail::sectors_of;

namespace {

sim_test::ProgramOutcome run_counted(const std::string& kernel) {
  setenv("PARLAB_SIM_COUNTERS", "2", 1);
  auto outcome = sim_test::run_program("sim_fixture_counters_kernels", kernel);
  unsetenv("PARLAB_SIM_COUNTERS");
  return outcome;
}

// 32 lanes reading `bytes` each at base + lane * stride.
std::vector<std::pair<std::uintptr_t, std::size_t>> warp(std::uintptr_t stride, std::size_t bytes = 4) {
  std::vector<std::pair<std::uintptr_t, std::size_t>> accesses;
  for (std::uintptr_t lane = 0; lane < 32; ++lane) accesses.push_back({0x10000 + lane * stride, bytes});
  return accesses;
}

}  // namespace

TEST_CASE("sectors per request: coalesced floats 4, stride 32 floats 32, broadcast 1",
          "[sim][counters]") {
  CHECK(sectors_of(warp(4)) == 4);
  CHECK(ideal_sectors_of(warp(4)) == 4);
  CHECK(sectors_of(warp(128)) == 32);
  CHECK(ideal_sectors_of(warp(128)) == 4);
  CHECK(sectors_of(warp(0)) == 1);
  CHECK(sectors_of(warp(8, 8)) == 8);  // doubles: 256 bytes
}

TEST_CASE("bank conflicts: consecutive words 1-way, a column of a 32x32 float tile 32-way, "
          "of a 16x16 tile 8-way, the same word a broadcast", "[sim][counters]") {
  CHECK(bank_conflict_degree(warp(4)) == 1);
  CHECK(bank_conflict_degree(warp(32 * 4)) == 32);
  CHECK(bank_conflict_degree(warp(33 * 4)) == 1);  // padded tile[32][33]
  CHECK(bank_conflict_degree(warp(0)) == 1);
  // 16x16 tile[tx][ty]: lanes 0..15 are tx with ty = 0, lanes 16..31 tx with ty = 1.
  std::vector<std::pair<std::uintptr_t, std::size_t>> columns;
  for (std::uintptr_t lane = 0; lane < 32; ++lane) columns.push_back({(lane % 16) * 64 + (lane / 16) * 4, 4});
  CHECK(bank_conflict_degree(columns) == 8);
}

TEST_CASE("a coalesced float load is 4 sectors per request, stride 32 is 32 with a hint",
          "[sim][counters]") {
  const auto coalesced = run_counted("coalesced_load");
  INFO(coalesced.output);
  CHECK_THAT(coalesced.output, Contains("global loads at counters_kernels.cu:11: 4.0 sectors per request (4.0 is ideal)"));
  CHECK_THAT(coalesced.output, !Contains("warning"));
  const auto strided = run_counted("stride_32_load");
  INFO(strided.output);
  CHECK_THAT(strided.output, Contains("global loads at counters_kernels.cu:16: 32.0 sectors per request (4.0 is ideal)"));
  CHECK_THAT(strided.output, Contains("warning: global-memory loads at counters_kernels.cu:16 in kernel "
                                      "stride_32_load need 32 sectors per request; 4 is ideal"));
  const auto broadcast = run_counted("broadcast_load");
  CHECK_THAT(broadcast.output, Contains("global loads at counters_kernels.cu:21: 1.0 sectors per request"));
}

TEST_CASE("tile[ty][tx] is conflict-free, tile[tx][ty] 32-way on 32x32 and 8-way on 16x16",
          "[sim][counters]") {
  const auto rows32 = run_counted("tile_rows_32");
  INFO(rows32.output);
  CHECK_THAT(rows32.output, Contains("shared stores at counters_kernels.cu:27: 1.0-way bank conflicts"));
  CHECK_THAT(rows32.output, !Contains("warning"));
  const auto columns32 = run_counted("tile_columns_32");
  INFO(columns32.output);
  CHECK_THAT(columns32.output, Contains("shared stores at counters_kernels.cu:35: 32.0-way bank conflicts"));
  CHECK_THAT(columns32.output, Contains("warning: shared-memory loads at counters_kernels.cu:37"));
  const auto rows16 = run_counted("tile_rows_16");
  CHECK_THAT(rows16.output, Contains("shared loads at counters_kernels.cu:29: 1.0-way bank conflicts"));
  const auto columns16 = run_counted("tile_columns_16");
  CHECK_THAT(columns16.output, Contains("shared loads at counters_kernels.cu:37: 8.0-way bank conflicts"));
}

TEST_CASE("without PARLAB_SIM_COUNTERS nothing is counted", "[sim][counters]") {
  const auto outcome = sim_test::run_program("sim_fixture_counters_kernels", "stride_32_load");
  CHECK(outcome.output == "stride_32_load: done\n");
}

TEST_CASE("PARLAB_SIM_COUNTERS_FILE gets one line per launch with the sampled totals",
          "[sim][counters]") {
  const std::string file =
      (std::filesystem::temp_directory_path() / ("counters-file-" + std::to_string(::getpid()))).string();
  std::filesystem::remove(file);
  setenv("PARLAB_SIM_COUNTERS_FILE", file.c_str(), 1);
  run_counted("coalesced_load");  // <<<2, 128>>>: out[i] = in[i]
  run_counted("stride_32_load");  // the same with in[i * 32]
  unsetenv("PARLAB_SIM_COUNTERS_FILE");
  std::ifstream in(file);
  std::string coalesced, strided, more;
  std::getline(in, coalesced);
  std::getline(in, strided);
  CHECK_FALSE(std::getline(in, more));
  std::filesystem::remove(file);
  // 256 threads, one load and one store each; 8 warps x 2 instructions = 16 requests;
  // one code block per warp (no branch), none divergent.
  CHECK(coalesced == "{\"kernel\": \"coalesced_load\", \"threads\": 256, \"global_loads\": 256, "
                     "\"global_stores\": 256, \"global_requests\": 16, \"global_sectors\": 64, "
                     "\"global_ideal_sectors\": 64, \"shared_requests\": 0, "
                     "\"shared_conflict_ways\": 0, \"warps\": 8, \"divergent_warps\": 0, "
                     "\"warp_blocks\": 8, \"divergent_warp_blocks\": 0, \"warp_block_runs\": 8, "
                     "\"divergent_runs\": 0}");
  // Loads 32 sectors per request, stores 4: 8 x 32 + 8 x 4.
  CHECK_THAT(strided, Contains("\"global_requests\": 16, \"global_sectors\": 288, "
                               "\"global_ideal_sectors\": 64"));
}

TEST_CASE("a launch's summary adds its instructions by kind; odd kernel names are reduced",
          "[sim][counters]") {
  using parlab_sim::detail::InstructionTotals;
  std::map<const void*, InstructionTotals> totals;
  int a = 0, b = 0, c = 0;
  totals[&a] = InstructionTotals{false, false, 4, 128, 16, 0};
  totals[&b] = InstructionTotals{false, true, 4, 16, 16, 0};
  totals[&c] = InstructionTotals{true, false, 10, 0, 0, 80};
  const auto s = parlab_sim::detail::summarize(totals, 64, 7, 3);
  CHECK(s.threads == 64);
  CHECK(s.global_loads == 7);
  CHECK(s.global_stores == 3);
  CHECK(s.global_requests == 8);
  CHECK(s.global_sectors == 144);
  CHECK(s.global_ideal_sectors == 32);
  CHECK(s.shared_requests == 10);
  CHECK(s.shared_conflict_ways == 80);
  const std::string line = parlab_sim::detail::summary_json_line("k<1>\"\n\\x", s);
  CHECK_THAT(line, Contains("{\"kernel\": \"k<1>???x\", \"threads\": 64,"));
}
