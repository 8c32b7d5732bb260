// grading/memory_hints, divergence_hint and code_place_names: the grader's memory-access
// and divergence hints from a run's records (facts the runtime wrote), their thresholds,
// their words and their lines.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "grading/code_place_names.hpp"
#include "grading/divergence_hint.hpp"
#include "grading/memory_hints.hpp"

namespace fs = std::filesystem;
using namespace parlab::grader;
using Catch::Matchers::Contains;

namespace {

RunInstruction global_access(std::uint64_t offset, std::uint64_t requests, std::uint64_t sectors,
                             std::uint64_t ideal, bool store = false, const std::string& kernel = "k") {
  RunInstruction r;
  r.kernel = kernel;
  r.counts.code_offset = offset;
  r.counts.store = store;
  r.counts.requests = requests;
  r.counts.sectors = sectors;
  r.counts.ideal_sectors = ideal;
  return r;
}

RunInstruction shared_access(std::uint64_t offset, std::uint64_t requests, std::uint64_t ways) {
  RunInstruction r;
  r.kernel = "k";
  r.counts.code_offset = offset;
  r.counts.shared = true;
  r.counts.requests = requests;
  r.counts.conflict_ways = ways;
  return r;
}

std::string line_of(std::uint64_t offset) { return "k.cu:" + std::to_string(offset); }

std::vector<std::string> summaries(const std::vector<SimFinding>& findings) {
  std::vector<std::string> out;
  for (const SimFinding& f : findings) out.push_back(f.summary);
  return out;
}

}  // namespace

TEST_CASE("a global access gets a hint at 8 sectors a request and twice the fewest, not below",
          "[memory_hints]") {
  const auto hints = memory_hint_findings({global_access(1, 100, 3200, 400),  // 32 of 4
                                           global_access(2, 100, 800, 400),   // 8 of 4
                                           global_access(3, 100, 700, 100),   // 7 of 1
                                           global_access(4, 100, 800, 500)},  // 8 of 5
                                          line_of);
  CHECK(summaries(hints) == std::vector<std::string>{"uncoalesced loads at k.cu:1", "uncoalesced loads at k.cu:2"});
  REQUIRE(hints.size() == 2);
  CHECK(hints[0].kind == kUncoalescedAccessKind);
  CHECK(hints[0].message == "global-memory loads at k.cu:1 in kernel k need 32 sectors per request; 4 is "
                            "ideal: consecutive threads should access consecutive addresses "
                            "(coalescing), so a warp's 32 accesses share a few 32-byte sectors.");
}

TEST_CASE("a shared access gets a hint at 2 conflict ways a request, stores named as stores",
          "[memory_hints]") {
  RunInstruction store = shared_access(5, 10, 20);
  store.counts.store = true;
  const auto hints = memory_hint_findings({store, shared_access(6, 10, 19)}, line_of);
  REQUIRE(hints.size() == 1);
  CHECK(hints[0].kind == kBankConflictsKind);
  CHECK(hints[0].summary == "shared-memory bank conflicts at k.cu:5");
  CHECK_THAT(hints[0].message, Contains("shared-memory stores at k.cu:5 in kernel k have 2-way bank "
                                        "conflicts per request (1 is ideal)"));
}

TEST_CASE("only an instruction with a tenth of its kernel's requests of its memory gets a hint",
          "[memory_hints]") {
  // A one-time strided load beside a coalesced loop: 10 of 101 requests is under a tenth.
  const auto minor = memory_hint_findings({global_access(1, 91, 364, 364), global_access(2, 10, 320, 40)}, line_of);
  CHECK(minor.empty());
  // A tenth exactly is enough; another kernel's requests do not dilute it.
  const auto tenth = memory_hint_findings({global_access(1, 90, 360, 360), global_access(2, 10, 320, 40),
                                           global_access(3, 100000, 400000, 400000, false, "other")},
                                          line_of);
  CHECK(summaries(tenth) == std::vector<std::string>{"uncoalesced loads at k.cu:2"});
  // Shared requests are not global ones.
  const auto apart = memory_hint_findings({shared_access(1, 1000, 1000), global_access(2, 10, 320, 40)}, line_of);
  CHECK(summaries(apart) == std::vector<std::string>{"uncoalesced loads at k.cu:2"});
}

TEST_CASE("hints come most requests first, one per line and kind, at an unknown line where "
          "none can be named", "[memory_hints]") {
  const auto same_line = [](std::uint64_t) { return std::string("k.cu:7"); };
  const auto hints = memory_hint_findings({global_access(1, 50, 1600, 200), global_access(2, 60, 1920, 240),
                                           global_access(3, 60, 1920, 240, true)},
                                          same_line);
  CHECK(summaries(hints) == std::vector<std::string>{"uncoalesced loads at k.cu:7", "uncoalesced stores at k.cu:7"});
  const auto unnamed = memory_hint_findings({global_access(1, 50, 1600, 200)}, {});
  CHECK(summaries(unnamed) == std::vector<std::string>{"uncoalesced loads at an unknown line"});
  const auto nameless = memory_hint_findings({global_access(1, 50, 1600, 200)}, [](std::uint64_t) { return ""; });
  CHECK(summaries(nameless) == std::vector<std::string>{"uncoalesced loads at an unknown line"});
}

TEST_CASE("instruction records no simulator writes are left out", "[memory_hints]") {
  const std::string good =
      "{\"instruction\": 16, \"kernel\": \"k\", \"memory\": \"global\", \"access\": \"load\", "
      "\"requests\": 2, \"sectors\": 64, \"ideal_sectors\": 8, \"conflict_ways\": 0}";
  const auto with = [&good](const std::string& from, const std::string& to) {
    std::string line = good;
    line.replace(line.find(from), from.size(), to);
    return line + "\n";
  };
  CHECK(parse_instruction_records(good + "\n").size() == 1);
  CHECK(parse_instruction_records(with("\"instruction\": 16", "\"instruction\": 0")).empty());
  CHECK(parse_instruction_records(with("\"requests\": 2", "\"requests\": 0")).empty());
  CHECK(parse_instruction_records(with("\"sectors\": 64", "\"sectors\": 1")).empty());  // fewer than requests
  CHECK(parse_instruction_records(with("\"ideal_sectors\": 8", "\"ideal_sectors\": 65")).empty());
  CHECK(parse_instruction_records(with("\"memory\": \"global\"", "\"memory\": \"local\"")).empty());
  CHECK(parse_instruction_records(with("\"access\": \"load\"", "\"access\": \"atomic\"")).empty());
  CHECK(parse_instruction_records(with("\"requests\": 2", "\"requests\": -2")).empty());
  CHECK(parse_instruction_records(with("\"requests\": 2", "\"requests\": 2.5")).empty());
  CHECK(parse_instruction_records(with(", \"conflict_ways\": 0", "")).empty());
  CHECK(parse_instruction_records(with("\"kernel\": \"k\"", "\"kernel\": \"" + std::string(121, 'k') + "\"")).empty());
  const std::string shared =
      "{\"instruction\": 16, \"kernel\": \"k\", \"memory\": \"shared\", \"access\": \"store\", "
      "\"requests\": 2, \"sectors\": 0, \"ideal_sectors\": 0, \"conflict_ways\": 65}\n";
  CHECK(parse_instruction_records(shared).empty());  // more than 32 ways a request
  // A launch's line is none, and no more records are read than a run writes.
  CHECK(parse_instruction_records("{\"kernel\": \"k\", \"threads\": 64}\n").empty());
  std::string many;
  for (int i = 0; i < 200; ++i) many += good + "\n";
  CHECK(parse_instruction_records(many).size() == parlab_sim::kMaxInstructionRecords);
}

TEST_CASE("the code places table names an instruction's line as the student knows it",
          "[memory_hints][code_places]") {
  const fs::path stage = fs::temp_directory_path() / ("code-place-names-" + std::to_string(::getpid())) / "src";
  fs::create_directories(stage / "sim");
  std::ofstream(stage / "kernels.cu") << "a\nb\nc\nd\ne\n";
  const std::string root = stage.string();
  const auto table = parlab_sim::decode_code_place_entries(
      "10,-," + root + "/kernels.cu:4;20,l,/usr/include/c++/12/bits/stl_algo.h:90;"
      "30,-," + root + "/sim/kernels.cu.cpp:5;40-80,l,;50,-,;60,t," + root + "/kernels.cu:2");
  CHECK(table_place_of(table, 0x10, stage) == "kernels.cu:4");
  CHECK(table_place_of(table, 0x20, stage) == "");              // the library's code: no line of the student's
  CHECK(table_place_of(table, 0x30, stage) == "kernels.cu:5");  // a rewritten copy's line is the original's
  CHECK(table_place_of(table, 0x50, stage) == "");              // an entry without a line
  CHECK(table_place_of(table, 0x60, stage) == "");              // a launch lambda: the host line names no kernel line
  CHECK_FALSE(table_place_of(table, 0x44, stage).has_value());  // only a stretch holds it: none
  CHECK_FALSE(table_place_of(table, 0x11, stage).has_value());  // no entry at all
  fs::remove_all(stage.parent_path());
}

TEST_CASE("a kernel gets a divergence hint from a tenth of its work divergent, naming its worst "
          "lines", "[memory_hints][divergence_hint]") {
  CounterTotals tenth;
  tenth.code_bytes = 1000;
  tenth.divergent_code_bytes = 100;
  CounterTotals less = tenth;
  less.divergent_code_bytes = 99;
  const auto block = [](std::uint64_t offset, std::uint64_t bytes, std::uint64_t divergent_runs,
                        std::uint64_t warps, const std::string& kernel = "k") {
    return RunCodeBlock{kernel, {offset, bytes, 100, divergent_runs, warps}};
  };
  // Worst first: the most divergent work, then the most warps, then the lowest offset;
  // a line once; at most three; a block without a line is passed over.
  const std::vector<RunCodeBlock> blocks = {block(1, 10, 10, 1), block(2, 50, 10, 1), block(3, 10, 10, 5),
                                            block(4, 50, 10, 1), block(5, 100, 10, 1), block(6, 1, 1, 1),
                                            block(7, 500, 100, 8, "other")};
  const auto place_of = [](std::uint64_t offset) { return offset == 5 ? "" : offset == 4 ? "k.cu:2" : "k.cu:" + std::to_string(offset); };
  const auto hints = divergence_findings({{"k", tenth}, {"calm", less}}, blocks, place_of);
  REQUIRE(hints.size() == 1);
  CHECK(hints[0].kind == kWarpDivergenceKind);
  CHECK(hints[0].summary == "warp divergence in kernel k at k.cu:2");
  CHECK(hints[0].message == "warp divergence in kernel k: 10% of the work its warps ran (code weighted by length "
                            "and runs) was run by only some of their threads (k.cu:2, k.cu:3, k.cu:1). Threads "
                            "of one warp that take different branches run one after the other: where you can, "
                            "make a branch's condition the same for the 32 threads of a warp (threadIdx.x / 32 "
                            "rather than threadIdx.x % 2).");
  // No line to name: the hint without one; no work counted: none.
  const auto unnamed = divergence_findings({{"k", tenth}}, blocks, {});
  REQUIRE(unnamed.size() == 1);
  CHECK(unnamed[0].summary == "warp divergence in kernel k");
  CHECK(divergence_findings({{"k", CounterTotals{}}}, blocks, place_of).empty());
}

TEST_CASE("code block records no simulator writes are left out", "[memory_hints][divergence_hint]") {
  const std::string good = "{\"code_block\": 16, \"kernel\": \"k\", \"bytes\": 20, \"warp_runs\": 16, "
                           "\"divergent_runs\": 8, \"divergent_warps\": 2}";
  const auto with = [&good](const std::string& from, const std::string& to) {
    std::string line = good;
    line.replace(line.find(from), from.size(), to);
    return line + "\n";
  };
  CHECK(parse_code_block_records(good + "\n").size() == 1);
  CHECK(parse_code_block_records(with("\"divergent_runs\": 8", "\"divergent_runs\": 17")).empty());
  CHECK(parse_code_block_records(with("\"divergent_runs\": 8", "\"divergent_runs\": 0")).empty());
  CHECK(parse_code_block_records(with("\"bytes\": 20", "\"bytes\": 0")).empty());
  CHECK(parse_code_block_records(with("\"code_block\": 16", "\"code_block\": 0")).empty());
  CHECK(parse_code_block_records(with("\"kernel\": \"k\"", "\"kernel\": 7")).empty());
  CHECK(parse_code_block_records(with(", \"divergent_warps\": 2", "")).empty());
  std::string many;
  for (int i = 0; i < 100; ++i) many += good + "\n";
  CHECK(parse_code_block_records(many).size() == parlab_sim::kMaxCodeBlockRecords);
}
