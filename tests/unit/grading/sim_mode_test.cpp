// grading/sim_mode: the simulator's findings file is untrusted text; a data race fails
// the test, the other findings leave its points unchanged.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "grading/sim_mode.hpp"

namespace fs = std::filesystem;
using namespace parlab::grader;
using Catch::Matchers::Contains;

namespace {

struct RunFolder {
  fs::path root = fs::temp_directory_path() / ("sim-mode-test-" + std::to_string(::getpid()));
  RunFolder() { fs::create_directories(root / "run" / "out"); }
  ~RunFolder() { fs::remove_all(root); }
  void write(const std::string& text) const {
    std::ofstream(root / "run" / "out" / kSimFindingsFile) << text;
  }
};

TestResult passed_test() {
  TestResult r;
  r.status = TestStatus::passed;
  r.points = 10;
  r.max_points = 10;
  r.message = "all outputs match";
  r.name = "naive: 1 x 1";
  return r;
}

// A run of kernel k whose warps ran half their code blocks divergent.
constexpr const char* kHalfDivergentCounters =
    "{\"kernel\": \"k\", \"threads\": 256, \"global_loads\": 256, \"global_stores\": 256, "
    "\"global_requests\": 16, \"global_sectors\": 64, \"global_ideal_sectors\": 64, "
    "\"shared_accesses\": 0, \"shared_requests\": 0, \"shared_conflict_ways\": 0, \"warps\": 8, "
    "\"divergent_warps\": 8, \"warp_blocks\": 32, \"divergent_warp_blocks\": 16, "
    "\"warp_block_runs\": 32, \"divergent_runs\": 16, \"code_bytes\": 2000, "
    "\"divergent_code_bytes\": 1000}\n";

}  // namespace

TEST_CASE("sim children get Volta barrier semantics, workers and the findings file", "[sim_mode]") {
  const auto env = sim_child_environment(3);
  CHECK(env.at("PARLAB_SIM_ALLOW_EXITED_AT_BARRIER") == "1");
  CHECK(env.at("PARLAB_SIM_WORKERS") == "3");
  CHECK(env.at("PARLAB_SIM_DIAGNOSTICS") == "out/sim-findings.jsonl");
  CHECK(env.at("PARLAB_SIM_RACE_CHECK") == "1");
  CHECK(env.at("PARLAB_SIM_COUNTERS") == "1");
  // Counting runs and re-runs look the same: one environment for every sim run.
  CHECK(env.at("PARLAB_SIM_COUNTERS_FILE") == "out/sim-counters.jsonl");
  CHECK(env.count("PARLAB_SIM_SCHEDULE") == 0);
  // Hints need only the sampled blocks; a scored counting run asks for every block.
  CHECK(env.at("PARLAB_SIM_COUNT_SAMPLED_BLOCKS") == "1");
  CHECK(sim_scored_counting_environment().at("PARLAB_SIM_COUNT_SAMPLED_BLOCKS") == "0");
}

TEST_CASE("findings lines are parsed, malformed ones skipped, counts and sizes capped",
          "[sim_mode]") {
  std::string text = "{\"kind\":\"exited_before_barrier\",\"message\":\"early exit at a.cu:3\"}\n"
                     "not json\n{\"kind\":7}\n{\"message\":\"no kind\"}\n";
  text += "{\"kind\":\"data_race\",\"message\":\"" + std::string(5000, 'x') + "\"}\n";
  for (int i = 0; i < 40; ++i) text += "{\"kind\":\"k\",\"message\":\"m\"}\n";
  const auto findings = parse_sim_findings(text);
  REQUIRE(findings.size() == 16);
  CHECK(findings[0].kind == "exited_before_barrier");
  CHECK(findings[0].message == "early exit at a.cu:3");
  CHECK(findings[1].kind == "data_race");
  CHECK(findings[1].message.size() == 1203);
}

TEST_CASE("a warning finding keeps the points and is added to the feedback", "[sim_mode]") {
  RunFolder folder;
  std::vector<std::string> notes;
  folder.write("{\"kind\":\"exited_before_barrier\",\"summary\":\"early exit before the "
               "__syncthreads() at matmul.cu:20\",\"message\":\"early exit before a barrier at "
               "matmul.cu:20\"}\n");
  TestResult r = passed_test();
  add_sim_findings(r, folder.root, "run", notes);
  CHECK(r.status == TestStatus::passed);
  CHECK(r.points == 10);
  CHECK_THAT(r.message, Catch::Matchers::StartsWith(
                           "all outputs match (simulator: early exit before the __syncthreads() "
                           "at matmul.cu:20)\nthe simulator found (points unchanged"));
  CHECK_THAT(r.message, Contains("- early exit before a barrier at matmul.cu:20"));
  REQUIRE(notes.size() == 1);
  CHECK(notes[0] == "simulator found: early exit before the __syncthreads() at matmul.cu:20 "
                    "(first in test 'naive: 1 x 1'; details in its message)");
  TestResult again = passed_test();
  add_sim_findings(again, folder.root, "run", notes);  // the same finding in another test
  CHECK(notes.size() == 1);
}

TEST_CASE("a data race fails a test whose outputs matched", "[sim_mode]") {
  RunFolder folder;
  std::vector<std::string> notes;
  folder.write("{\"kind\":\"data_race\",\"message\":\"data race on shared array bins\"}\n");
  TestResult r = passed_test();
  add_sim_findings(r, folder.root, "run", notes);
  CHECK(r.status == TestStatus::failed);
  CHECK(r.points == 0);
  CHECK_THAT(r.message, Contains("data race: a GPU may compute another answer on any run "
                                 "(simulator: data_race)"));
  CHECK_THAT(r.message, Contains("- data race on shared array bins"));
}

TEST_CASE("no findings file, or a link in its place, changes nothing", "[sim_mode]") {
  RunFolder folder;
  std::vector<std::string> notes;
  TestResult r = passed_test();
  add_sim_findings(r, folder.root, "run", notes);
  CHECK(r.message == "all outputs match");
  std::ofstream(folder.root / "secret") << "{\"kind\":\"data_race\",\"message\":\"x\"}\n";
  fs::create_symlink(folder.root / "secret", folder.root / "run" / "out" / kSimFindingsFile);
  add_sim_findings(r, folder.root, "run", notes);
  CHECK(r.status == TestStatus::passed);
  CHECK(r.message == "all outputs match");
  CHECK(notes.empty());
}

TEST_CASE("memory-access hints are made from the run's instruction records, named by the "
          "grader and judged against the reference's counters on the same data", "[sim_mode]") {
  RunFolder folder;
  std::vector<std::string> notes;
  // No finding from the runtime: the hints come from the counters' facts.
  const std::string counted =
      "{\"kernel\": \"k\", \"threads\": 64, \"global_loads\": 64, \"global_stores\": 0, "
      "\"global_requests\": 2, \"global_sectors\": 64, \"global_ideal_sectors\": 8, "
      "\"shared_accesses\": 64, \"shared_requests\": 2, \"shared_conflict_ways\": 4}\n"
      "{\"instruction\": 64, \"kernel\": \"k\", \"memory\": \"global\", \"access\": \"load\", "
      "\"requests\": 2, \"sectors\": 64, \"ideal_sectors\": 8, \"conflict_ways\": 0}\n"
      "{\"instruction\": 144, \"kernel\": \"k\", \"memory\": \"shared\", \"access\": \"store\", "
      "\"requests\": 2, \"sectors\": 0, \"ideal_sectors\": 0, \"conflict_ways\": 4}\n";
  std::ofstream(folder.root / "run" / "out" / kSimCountersFile) << counted;
  const InstructionPlaceNamer place_of = [](std::uint64_t offset) {
    return offset == 64 ? "k.cu:4" : offset == 144 ? "k.cu:9" : "";
  };
  CounterTotals reference_totals;  // coalesced, with the same 2-way conflicts
  reference_totals.launches = 1;
  reference_totals.global_requests = 2;
  reference_totals.global_sectors = 8;
  reference_totals.global_ideal_sectors = 8;
  reference_totals.shared_requests = 2;
  reference_totals.shared_conflict_ways = 4;
  const std::optional<CounterTotals> reference = reference_totals;
  TestResult r = passed_test();
  add_sim_findings(r, folder.root, "run", notes, false, &reference, {}, place_of);
  CHECK_THAT(r.message, Contains("(simulator: uncoalesced loads at k.cu:4)"));
  CHECK_THAT(r.message, Contains("global-memory loads at k.cu:4 in kernel k need 32 sectors per "
                                 "request; 4 is ideal: consecutive threads should access "
                                 "consecutive addresses"));
  CHECK_THAT(r.message, Contains("(this run: 8.0 global sectors over the fewest needed (reference "
                                 "on the same data: 1.0))"));
  CHECK_THAT(r.message, !Contains("k.cu:9"));  // the reference has the same conflicts

  // Without a namer the hint still stands, at an unknown line.
  TestResult unnamed = passed_test();
  std::vector<std::string> more_notes;
  add_sim_findings(unnamed, folder.root, "run", more_notes, false, &reference);
  CHECK_THAT(unnamed.message, Contains("(simulator: uncoalesced loads at an unknown line)"));

  // The reference itself: nothing to say.
  const std::optional<CounterTotals> same = parse_sim_counters(counted);
  TestResult own = passed_test();
  std::vector<std::string> no_notes;
  add_sim_findings(own, folder.root, "run", no_notes, false, &same, {}, place_of);
  CHECK(own.message == "all outputs match");
  CHECK(no_notes.empty());

  // A memory-access finding on the runtime's findings channel is none: those hints are
  // the grader's to make, from the facts.
  folder.write("{\"kind\":\"uncoalesced_access\",\"summary\":\"uncoalesced loads at k.cu:77\","
               "\"message\":\"loads at k.cu:77\"}\n"
               "{\"kind\":\"bank_conflicts\",\"summary\":\"shared-memory bank conflicts at k.cu:78\","
               "\"message\":\"conflicts at k.cu:78\"}\n");
  TestResult claimed = passed_test();
  std::vector<std::string> claimed_notes;
  add_sim_findings(claimed, folder.root, "run", claimed_notes, false, &reference, {}, place_of);
  CHECK_THAT(claimed.message, Contains("(simulator: uncoalesced loads at k.cu:4)"));
  CHECK_THAT(claimed.message, !Contains("k.cu:77"));
  CHECK_THAT(claimed.message, !Contains("k.cu:78"));
}

TEST_CASE("a warp-divergence hint is shown only where this run diverges clearly more than "
          "the reference on the same data", "[sim_mode]") {
  RunFolder folder;
  // The runtime's own finding of this kind is none (the grader makes it from the facts).
  folder.write("{\"kind\":\"warp_divergence\",\"summary\":\"warp divergence in kernel k at "
               "k.cu:77\",\"message\":\"warp divergence in kernel k: 90% (k.cu:77)\"}\n");
  std::ofstream(folder.root / "run" / "out" / kSimCountersFile)
      << kHalfDivergentCounters
      << "{\"code_block\": 64, \"kernel\": \"k\", \"bytes\": 20, \"warp_runs\": 16, "
         "\"divergent_runs\": 16, \"divergent_warps\": 8}\n"
         "{\"code_block\": 96, \"kernel\": \"k\", \"bytes\": 10, \"warp_runs\": 16, "
         "\"divergent_runs\": 16, \"divergent_warps\": 8}\n";
  const InstructionPlaceNamer place_of = [](std::uint64_t offset) {
    return offset == 64 ? "k.cu:12" : offset == 96 ? "k.cu:14" : "";
  };
  CounterTotals uniform;  // the reference: the same code blocks, none divergent
  uniform.launches = 1;
  uniform.warps = 8;
  uniform.warp_blocks = 24;
  uniform.code_bytes = 2000;
  std::optional<CounterTotals> reference = uniform;
  std::vector<std::string> notes;
  TestResult r = passed_test();
  add_sim_findings(r, folder.root, "run", notes, false, &reference, {}, place_of);
  CHECK_THAT(r.message, Contains("(simulator: warp divergence in kernel k at k.cu:12)"));
  CHECK_THAT(r.message, !Contains("k.cu:77"));
  CHECK_THAT(r.message, Contains("(k.cu:12, k.cu:14)."));
  CHECK_THAT(r.message, Contains("(threadIdx.x / 32 rather than threadIdx.x % 2). (this run: 50% of the work its warps ran was "
                                 "run by only some of their threads; the reference on the same "
                                 "data: 0%)"));
  CHECK(r.status == TestStatus::passed);  // a hint: points unchanged

  // A reference that diverges as much (a tree reduction's last steps): nothing to say.
  CounterTotals diverging = uniform;
  diverging.divergent_code_bytes = 920;  // 46%: 50% is less than twice that
  reference = diverging;
  TestResult same = passed_test();
  std::vector<std::string> no_notes;
  add_sim_findings(same, folder.root, "run", no_notes, false, &reference, {}, place_of);
  CHECK(same.message == "all outputs match");
}

TEST_CASE("a finding of a re-run in another order counts, each finding once", "[sim_mode]") {
  RunFolder folder;
  std::vector<std::string> notes;
  const std::string leak = "{\"kind\":\"device_memory_leak\",\"summary\":\"leak at a.cu:3\",\"message\":\"leak\"}\n";
  folder.write(leak);
  fs::create_directories(folder.root / "rerun" / "out");
  std::ofstream(folder.root / "rerun" / "out" / kSimFindingsFile)
      << leak << "{\"kind\":\"data_race\",\"summary\":\"race on bins\",\"message\":\"data race on bins\"}\n";
  TestResult r = passed_test();
  add_sim_findings(r, folder.root, "run", notes, false, nullptr, {"rerun", "missing-rerun"});
  CHECK(r.status == TestStatus::failed);  // the race was seen in the re-run only
  CHECK_THAT(r.message, Contains("(simulator: leak at a.cu:3; race on bins)"));
  CHECK(r.message.find("- leak") == r.message.rfind("- leak"));  // listed once
}

TEST_CASE("a failed test's findings say undefined behaviour, never that its answers are right",
          "[sim_mode]") {
  RunFolder folder;
  folder.write("{\"kind\":\"inactive_lane_read\",\"summary\":\"__shfl_down_sync from an inactive "
               "lane at s.cu:17\",\"message\":\"__shfl_down_sync at s.cu:17 reads a lane that is "
               "not taking part\"}\n");
  std::vector<std::string> notes;
  TestResult r = passed_test();
  r.status = TestStatus::failed;
  r.points = 0;
  r.message = "sum[0]: expected 1.5, got 51.1; 1 of 1 elements differ. Hint: larger than the sum: "
              "elements added twice (a tree step without __syncthreads() between levels)";
  add_sim_findings(r, folder.root, "run", notes);
  CHECK(r.status == TestStatus::failed);
  // The lab's hint for a result too large names another cause: left out, the undefined
  // values named instead.
  CHECK_THAT(r.message, !Contains("Hint:"));
  CHECK_THAT(r.message, !Contains("elements added twice"));
  CHECK_THAT(r.message, Catch::Matchers::StartsWith(
                           "sum[0]: expected 1.5, got 51.1; 1 of 1 elements differ. The kernel "
                           "read values a GPU leaves undefined (below)"));
  CHECK_THAT(r.message, Contains("\nthe simulator found undefined behaviour, a likely cause of this failure"));
  CHECK_THAT(r.message, !Contains("points unchanged"));
}

TEST_CASE("a speed finding on a test that failed (a stop) is not introduced as right answers",
          "[sim_mode]") {
  RunFolder folder;
  folder.write("{\"kind\":\"warp_divergence\",\"summary\":\"warp divergence in kernel k at "
               "k.cu:12\",\"message\":\"warp divergence in kernel k (k.cu:12)\"}\n");
  std::ofstream(folder.root / "run" / "out" / kSimCountersFile) << kHalfDivergentCounters;
  CounterTotals uniform;
  uniform.launches = 1;
  uniform.warps = 8;
  uniform.warp_blocks = 24;
  uniform.code_bytes = 2000;
  const std::optional<CounterTotals> reference = uniform;
  std::vector<std::string> notes;
  TestResult r = passed_test();
  r.status = TestStatus::failed;
  r.points = 0;
  r.message = "undefined behaviour in a kernel: threads of one block wait at different __syncthreads()";
  add_sim_findings(r, folder.root, "run", notes, false, &reference);
  REQUIRE_THAT(r.message, Contains("warp divergence in kernel k"));  // judged, so kept
  CHECK_THAT(r.message, !Contains("the answers are right"));
  CHECK_THAT(r.message, !Contains("points unchanged"));
  CHECK_THAT(r.message, Contains("\nthe simulator also found (about speed, not why this test failed):"));
  CHECK_THAT(r.message, Catch::Matchers::StartsWith("undefined behaviour in a kernel"));
}
