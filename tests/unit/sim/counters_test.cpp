// Memory-access counters on canonical kernels with known answers (Nsight Compute's
// definitions): sectors per global request, bank-conflict degree per shared request.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

#include "counters/access_counters.hpp"
#include "counters/vector_access.hpp"
#include "sim_test_support.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;
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
  // Which instruction deserves a hint is the grader's to judge (grading/memory_hints).
  CHECK_THAT(strided.output, !Contains("warning"));
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
  CHECK_THAT(columns32.output, !Contains("warning"));
  const auto rows16 = run_counted("tile_rows_16");
  CHECK_THAT(rows16.output, Contains("shared loads at counters_kernels.cu:29: 1.0-way bank conflicts"));
  const auto columns16 = run_counted("tile_columns_16");
  CHECK_THAT(columns16.output, Contains("shared loads at counters_kernels.cu:37: 8.0-way bank conflicts"));
}

TEST_CASE("a float4 access is one 16-byte access: coalesced float4 loads and __ldg are ideal, "
          "no hint", "[sim][counters]") {
  const auto copy = run_counted("float4_copy");
  INFO(copy.output);
  // 32 lanes x 16 bytes = 512 bytes: 16 sectors, and 16 is the fewest (not 4 loads of
  // 4 bytes with a 16-byte stride, 16 sectors each where 4 would do).
  CHECK_THAT(copy.output, Contains("global loads at counters_kernels.cu:44: 16.0 sectors per request (16.0 is ideal), 8 requests"));
  CHECK_THAT(copy.output, Contains("global stores at counters_kernels.cu:49: 16.0 sectors per request (16.0 is ideal), 8 requests"));
  CHECK_THAT(copy.output, !Contains("warning"));
  const auto ldg = run_counted("float4_ldg");
  INFO(ldg.output);
  CHECK_THAT(ldg.output, Contains("16.0 sectors per request (16.0 is ideal), 8 requests"));
  CHECK_THAT(ldg.output, !Contains("warning"));
}

TEST_CASE("vector pieces: a lane's fields fill an aligned 16 or 8 bytes in order, else each "
          "counts alone", "[sim][counters]") {
  using parlab_sim::detail::VectorMerger;
  using parlab_sim::detail::VectorPiece;
  int a = 0, b = 0;
  VectorMerger merger;
  VectorPiece out[4];
  for (std::uintptr_t field = 0; field < 4; ++field) {
    REQUIRE(merger.offer(VectorPiece{field == 0 ? &a : &b, 0x1000 + field * 4, 4, false, false}));
  }
  REQUIRE(merger.drain(out) == 1);
  CHECK(out[0].address == 0x1000);
  CHECK(out[0].bytes == 16);
  CHECK(out[0].pc == &a);
  // A float2 in the upper half: one 8-byte access.
  REQUIRE(merger.offer(VectorPiece{&a, 0x1008, 4, true, false}));
  REQUIRE(merger.offer(VectorPiece{&b, 0x100c, 4, true, false}));
  REQUIRE(merger.drain(out) == 1);
  CHECK(out[0].address == 0x1008);
  CHECK(out[0].bytes == 8);
  // A float3 stays three accesses; a descending neighbour (a stencil's in[p - 1] after
  // in[p]) or a store after a load does not join.
  for (std::uintptr_t field = 0; field < 3; ++field) {
    REQUIRE(merger.offer(VectorPiece{&a, 0x2000 + field * 4, 4, false, false}));
  }
  CHECK(merger.drain(out) == 3);
  REQUIRE(merger.offer(VectorPiece{&a, 0x3008, 4, false, false}));
  CHECK_FALSE(merger.offer(VectorPiece{&b, 0x3004, 4, false, false}));
  CHECK_FALSE(merger.offer(VectorPiece{&b, 0x300c, 4, false, true}));
  CHECK(merger.drain(out) == 1);
  CHECK(out[0].bytes == 4);
}

TEST_CASE("bank conflicts of 8- and 16-byte accesses are counted per phase of 16 and 8 lanes",
          "[sim][counters]") {
  CHECK(bank_conflict_degree(warp(8, 8)) == 1);    // float2 tile[tx]: 2 phases, conflict-free
  CHECK(bank_conflict_degree(warp(16, 16)) == 1);  // float4 tile[tx]: 4 phases, conflict-free
  CHECK(bank_conflict_degree(warp(32, 16)) == 2);  // float4 at a 32-byte stride: 2-way
}

TEST_CASE("without PARLAB_SIM_COUNTERS nothing is counted", "[sim][counters]") {
  const auto outcome = sim_test::run_program("sim_fixture_counters_kernels", "stride_32_load");
  CHECK(outcome.output == "stride_32_load: done\n");
}

TEST_CASE("PARLAB_SIM_COUNTERS_FILE gets one line per launch with its totals",
          "[sim][counters]") {
  const std::string file =
      (std::filesystem::temp_directory_path() / ("counters-file-" + std::to_string(::getpid()))).string();
  std::filesystem::remove(file);
  setenv("PARLAB_SIM_COUNTERS_FILE", file.c_str(), 1);
  run_counted("coalesced_load");  // <<<2, 128>>>: out[i] = in[i]
  run_counted("stride_32_load");  // the same with in[i * 32]
  unsetenv("PARLAB_SIM_COUNTERS_FILE");
  std::ifstream in(file);
  // Each run: its launch's line, then at exit its memory instructions (the load and the
  // store, most requests first, the offset breaking the tie) and the run's last line (the
  // launches past the line limit, none here, and the host's accesses after the launch).
  std::string coalesced, tail, strided, more;
  std::string coalesced_records[2], strided_records[2];
  std::getline(in, coalesced);
  for (std::string& record : coalesced_records) std::getline(in, record);
  std::getline(in, tail);
  CHECK_THAT(tail, StartsWith("{\"kernel\": \"(the rest of the run)\", \"threads\": 0, \"global_loads\": 0, "));
  std::getline(in, strided);
  for (std::string& record : strided_records) std::getline(in, record);
  std::getline(in, tail);
  CHECK_THAT(tail, StartsWith("{\"kernel\": \"(the rest of the run)\", \"threads\": 0, "));
  CHECK_FALSE(std::getline(in, more));
  std::filesystem::remove(file);
  // 256 threads, one load and one store each; 8 warps x 2 instructions = 16 requests;
  // one code block per warp (no branch), none divergent.
  // The work (code bytes x runs) depends on g++'s code: its figure is not pinned.
  CHECK_THAT(coalesced, StartsWith("{\"kernel\": \"coalesced_load\", \"threads\": 256, \"global_loads\": 256, "
                     "\"global_stores\": 256, \"global_requests\": 16, \"global_sectors\": 64, "
                     "\"global_ideal_sectors\": 64, \"shared_accesses\": 0, \"shared_requests\": 0, "
                     "\"shared_conflict_ways\": 0, \"host_accesses\": "));
  // The host's accesses before the launch depend on g++'s code too: not pinned.
  CHECK_THAT(coalesced, Contains(", \"warps\": 8, \"divergent_warps\": 0, "
                     "\"warp_blocks\": 8, \"divergent_warp_blocks\": 0, \"warp_block_runs\": 8, "
                     "\"divergent_runs\": 0, \"code_bytes\": "));
  CHECK_THAT(coalesced, EndsWith(", \"divergent_code_bytes\": 0}"));
  // Loads 32 sectors per request, stores 4: 8 x 32 + 8 x 4.
  CHECK_THAT(strided, Contains("\"global_requests\": 16, \"global_sectors\": 288, "
                               "\"global_ideal_sectors\": 64"));
  // The instructions' facts: 8 requests each; the strided load 32 sectors a request
  // where its bytes need 4, the store 4 of 4. Where they are is an offset in the program
  // (the grader names its line), the same instruction in both runs of the program.
  std::string loads[2], stores[2];
  for (int run = 0; run < 2; ++run) {
    for (const std::string& record : run == 0 ? coalesced_records : strided_records) {
      INFO(record);
      CHECK_THAT(record, StartsWith("{\"instruction\": "));
      (record.find("\"access\": \"load\"") != std::string::npos ? loads : stores)[run] = record;
    }
  }
  CHECK_THAT(loads[0], Contains(", \"kernel\": \"coalesced_load\", \"memory\": \"global\", \"access\": \"load\", "
                                "\"requests\": 8, \"sectors\": 32, \"ideal_sectors\": 32, \"conflict_ways\": 0}"));
  CHECK_THAT(loads[1], Contains(", \"kernel\": \"stride_32_load\", \"memory\": \"global\", \"access\": \"load\", "
                                "\"requests\": 8, \"sectors\": 256, \"ideal_sectors\": 32, \"conflict_ways\": 0}"));
  CHECK_THAT(stores[1], Contains(", \"kernel\": \"stride_32_load\", \"memory\": \"global\", \"access\": \"store\", "
                                 "\"requests\": 8, \"sectors\": 32, \"ideal_sectors\": 32, \"conflict_ways\": 0}"));
  CHECK(loads[0].substr(0, loads[0].find(',')) != loads[1].substr(0, loads[1].find(',')));  // two kernels' loads
}

TEST_CASE("every block and every execution of a loop is counted", "[sim][counters]") {
  const std::string file =
      (std::filesystem::temp_directory_path() / ("counters-all-" + std::to_string(::getpid()))).string();
  std::filesystem::remove(file);
  setenv("PARLAB_SIM_COUNTERS_FILE", file.c_str(), 1);
  run_counted("looped_loads");  // <<<8, 32>>>: 200 coalesced loads a thread, one store
  unsetenv("PARLAB_SIM_COUNTERS_FILE");
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  std::filesystem::remove(file);
  // 8 warps x (200 load requests of 4 sectors + 1 store request of 4): the whole launch,
  // the same in every run (no block drawn from a seed).
  CHECK_THAT(line, Contains("\"threads\": 256, \"global_loads\": 51200, \"global_stores\": 256, "
                            "\"global_requests\": 1608, \"global_sectors\": 6432, "
                            "\"global_ideal_sectors\": 6432"));
}

namespace {

// The counters file's line for `kernel` run under `settings` (name=value, set for the run).
std::string counted_line(const std::string& kernel,
                         const std::vector<std::pair<std::string, std::string>>& settings) {
  const std::string file =
      (std::filesystem::temp_directory_path() / ("counters-line-" + std::to_string(::getpid()))).string();
  std::filesystem::remove(file);
  setenv("PARLAB_SIM_COUNTERS_FILE", file.c_str(), 1);
  for (const auto& [name, value] : settings) setenv(name.c_str(), value.c_str(), 1);
  run_counted(kernel);
  for (const auto& [name, value] : settings) unsetenv(name.c_str());
  unsetenv("PARLAB_SIM_COUNTERS_FILE");
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  std::filesystem::remove(file);
  return line;
}

// The scored part of a line: the memory-access totals (the divergence figures after
// them come from two sampled blocks and are never scored).
std::string scored_part(const std::string& line) { return line.substr(0, line.find(", \"warps\"")); }

}  // namespace

TEST_CASE("loads from a __device__ array are counted as global loads", "[sim][counters]") {
  // <<<2, 128>>>: out[i] = g_device_table[threadIdx.x]. As coalesced_load: a load and a
  // store a thread, 8 warps x 2 requests of 4 sectors.
  const std::string line = counted_line("device_table_load", {});
  INFO(line);
  CHECK_THAT(line, Contains("\"threads\": 256, \"global_loads\": 256, \"global_stores\": 256, "
                            "\"global_requests\": 16, \"global_sectors\": 64, "));
}

TEST_CASE("shared loads and stores are counted per lane beside their warp requests",
          "[sim][counters]") {
  // <<<1, 64>>>: 64 lanes store, one lane reads 64. The stores: 64 lanes' accesses in 2
  // warp requests. The reads: lane 0's 64 floats, back to back, count as 16 accesses of
  // 16 bytes (as a GPU's vector loads), each a request of its own.
  const std::string line = counted_line("one_lane_from_shared", {});
  INFO(line);
  CHECK_THAT(line, Contains("\"shared_accesses\": 80, \"shared_requests\": 18, "));
}

TEST_CASE("two counting runs in other thread orders and sampled blocks score the same figures",
          "[sim][counters]") {
  // The two seeds draw other blocks to sample (the next test case): a count of the
  // sampled blocks only would differ.
  const std::string first = counted_line("uneven_blocks", {{"PARLAB_SIM_SEED", "1234"}});
  const std::string second = counted_line("uneven_blocks", {{"PARLAB_SIM_SEED", "9abcdef"}});
  // Every block: 8 x 32 threads, 32 x (1 + 2 + ... + 8) loads, 36 load requests and
  // 8 store requests.
  CHECK_THAT(first, Contains("\"threads\": 256, \"global_loads\": 1152, \"global_stores\": 256, "
                             "\"global_requests\": 44, "));
  CHECK(scored_part(first) == scored_part(second));
}

TEST_CASE("PARLAB_SIM_COUNT_SAMPLED_BLOCKS=1 counts only the two sampled blocks (hints)",
          "[sim][counters]") {
  std::vector<std::string> lines;
  for (const char* seed : {"1234", "9abcdef"}) {
    lines.push_back(counted_line("uneven_blocks",
                                 {{"PARLAB_SIM_COUNT_SAMPLED_BLOCKS", "1"}, {"PARLAB_SIM_SEED", seed}}));
    INFO(lines.back());
    CHECK_THAT(lines.back(), Contains("\"threads\": 64, "));
    CHECK_THAT(lines.back(), Contains("\"global_stores\": 64, "));
  }
  // Two other pairs of blocks: the figures differ (blocks make 32 (b + 1) loads each).
  CHECK(scored_part(lines[0]) != scored_part(lines[1]));
  // Without it (or =0) every block is counted, whatever the sample seed.
  CHECK_THAT(counted_line("uneven_blocks", {{"PARLAB_SIM_COUNT_SAMPLED_BLOCKS", "0"}}),
             Contains("\"threads\": 256, \"global_loads\": 1152, "));
}

TEST_CASE("a launch's summary adds its instructions by kind, odd kernel names are reduced",
          "[sim][counters]") {
  using parlab_sim::detail::InstructionTotals;
  std::map<const void*, InstructionTotals> totals;
  int a = 0, b = 0, c = 0;
  totals[&a] = InstructionTotals{false, false, 4, 128, 16, 0};
  totals[&b] = InstructionTotals{false, true, 4, 16, 16, 0};
  totals[&c] = InstructionTotals{true, false, 10, 0, 0, 80};
  const auto s = parlab_sim::detail::summarize(totals, 64, {7, 3, 25});
  CHECK(s.threads == 64);
  CHECK(s.global_loads == 7);
  CHECK(s.global_stores == 3);
  CHECK(s.shared_accesses == 25);
  CHECK(s.global_requests == 8);
  CHECK(s.global_sectors == 144);
  CHECK(s.global_ideal_sectors == 32);
  CHECK(s.shared_requests == 10);
  CHECK(s.shared_conflict_ways == 80);
  const std::string line = parlab_sim::detail::summary_json_line("k<1>\"\n\\x", s);
  CHECK_THAT(line, Contains("{\"kernel\": \"k<1>???x\", \"threads\": 64,"));
}
