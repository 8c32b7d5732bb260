// The counters channel's records, end to end: what the runtime writes for a launch
// (counters/access_counters), a memory instruction and a code block (counters/run_records)
// is what the grader reads back (grading/sim_counters, memory_hints, divergence_hint),
// field by field, through the one definition both use (parlab_sim/launch_counts.hpp,
// instruction_counts.hpp, code_block_counts.hpp).
#include <catch2/catch.hpp>
#include <string>

#include "counters/access_counters.hpp"
#include "counters/run_records.hpp"
#include "grading/divergence_hint.hpp"
#include "grading/memory_hints.hpp"
#include "grading/sim_counters.hpp"
#include "parlab_sim/code_block_counts.hpp"
#include "parlab_sim/instruction_counts.hpp"
#include "parlab_sim/launch_counts.hpp"

using parlab_sim::detail::LaunchSummary;

namespace {

// A launch whose every field holds a value of its own (its position, times a prime, plus
// a bit past 32 bits), so a field written under another's name cannot pass.
LaunchSummary distinct_summary() {
  LaunchSummary s;
  std::uint64_t next = 1;
  const auto value = [&next] { return (next++ * 7919) + (std::uint64_t{1} << 33); };
  s.threads = value();
  s.global_loads = value();
  s.global_stores = value();
  s.global_requests = value();
  s.global_ideal_sectors = value();
  s.global_sectors = s.global_ideal_sectors + value();
  s.shared_requests = value();
  s.shared_accesses = s.shared_requests + value();
  s.shared_conflict_ways = s.shared_requests + value();
  s.divergence.divergent_warps = value();
  s.divergence.warps = s.divergence.divergent_warps + value();
  s.divergence.divergent_warp_blocks = value();
  s.divergence.warp_blocks = s.divergence.divergent_warp_blocks + value();
  s.divergence.divergent_runs = value();
  s.divergence.warp_block_runs = s.divergence.divergent_runs + value();
  s.divergence.divergent_code_bytes = value();
  s.divergence.code_bytes = s.divergence.divergent_code_bytes + value();
  return s;
}

}  // namespace

TEST_CASE("every field of a launch's counts reaches the grader under its own name",
          "[sim][counters][protocol]") {
  const LaunchSummary s = distinct_summary();
  parlab_sim::LaunchCounts written = parlab_sim::detail::launch_counts(s);
  written.host_accesses = (std::uint64_t{1} << 34) + 17;  // the host's since the last line
  const std::string line = parlab_sim::detail::counts_json_line("reduce<256>", written);
  // Two launches: the grader sums them.
  const auto read = parlab::grader::parse_sim_counters(line + line);
  REQUIRE(read.has_value());
  CHECK(read->launches == 2);
  for (const parlab_sim::CountField& field : parlab_sim::kLaunchCountFields) {
    INFO("field " << field.name);
    CHECK(written.*field.member != 0);
    CHECK((*read).*field.member == 2 * (written.*field.member));
  }
  // And each is the runtime's own count of that name, not a neighbour's.
  const parlab::grader::CounterTotals& r = *read;
  CHECK(r.threads == 2 * s.threads);
  CHECK(r.global_loads == 2 * s.global_loads);
  CHECK(r.global_stores == 2 * s.global_stores);
  CHECK(r.global_requests == 2 * s.global_requests);
  CHECK(r.global_sectors == 2 * s.global_sectors);
  CHECK(r.global_ideal_sectors == 2 * s.global_ideal_sectors);
  CHECK(r.shared_accesses == 2 * s.shared_accesses);
  CHECK(r.shared_requests == 2 * s.shared_requests);
  CHECK(r.shared_conflict_ways == 2 * s.shared_conflict_ways);
  CHECK(r.warps == 2 * s.divergence.warps);
  CHECK(r.divergent_warps == 2 * s.divergence.divergent_warps);
  CHECK(r.warp_blocks == 2 * s.divergence.warp_blocks);
  CHECK(r.divergent_warp_blocks == 2 * s.divergence.divergent_warp_blocks);
  CHECK(r.warp_block_runs == 2 * s.divergence.warp_block_runs);
  CHECK(r.divergent_runs == 2 * s.divergence.divergent_runs);
  CHECK(r.code_bytes == 2 * s.divergence.code_bytes);
  CHECK(r.divergent_code_bytes == 2 * s.divergence.divergent_code_bytes);
  CHECK(r.host_accesses == 2 * written.host_accesses);
}

TEST_CASE("the run's last line adds the launches past the line limit and the host's work, "
          "and is no launch of its own when it sums none", "[sim][counters][protocol]") {
  parlab_sim::LaunchCounts launch = parlab_sim::detail::launch_counts(distinct_summary());
  parlab_sim::LaunchCounts host_only;
  host_only.host_accesses = 4096;
  const std::string text = parlab_sim::detail::counts_json_line("k", launch) +
                           parlab_sim::detail::counts_json_line(parlab_sim::kLaunchTailName, host_only);
  const auto read = parlab::grader::parse_sim_counters(text);
  REQUIRE(read.has_value());
  CHECK(read->launches == 1);
  CHECK(read->host_accesses == 4096);
  CHECK(read->global_loads == launch.global_loads);
  // Summed launches in it are launches (their threads), counted with the others.
  const auto with_summed = parlab::grader::parse_sim_counters(
      text + parlab_sim::detail::counts_json_line(parlab_sim::kLaunchTailName, launch));
  REQUIRE(with_summed.has_value());
  CHECK(with_summed->launches == 2);
  CHECK(with_summed->global_loads == 2 * launch.global_loads);
  // A host count alone is no run with counters.
  CHECK_FALSE(parlab::grader::parse_sim_counters(
      parlab_sim::detail::counts_json_line(parlab_sim::kLaunchTailName, host_only)));
}

TEST_CASE("a line without one of the access counts is no launch, without a divergence count, "
          "no divergence", "[sim][counters][protocol]") {
  const parlab_sim::LaunchCounts written = parlab_sim::detail::launch_counts(distinct_summary());
  for (const parlab_sim::CountField& left_out : parlab_sim::kLaunchCountFields) {
    INFO("left out: " << left_out.name);
    std::string line = "{\"kernel\": \"k\"";
    for (const parlab_sim::CountField& field : parlab_sim::kLaunchCountFields) {
      if (field.name == left_out.name) continue;
      line += ", \"" + std::string(field.name) + "\": " + std::to_string(written.*field.member);
    }
    line += "}\n";
    const auto read = parlab::grader::parse_sim_counters(line);
    if (left_out.group == parlab_sim::CountGroup::host) {
      REQUIRE(read.has_value());
      CHECK(read->host_accesses == 0);
      continue;
    }
    if (left_out.group == parlab_sim::CountGroup::accesses) {
      CHECK_FALSE(read.has_value());
      continue;
    }
    REQUIRE(read.has_value());
    CHECK(read->global_loads == written.global_loads);
    for (const parlab_sim::CountField& field : parlab_sim::kLaunchCountFields) {
      if (field.group == parlab_sim::CountGroup::divergence) CHECK((*read).*field.member == 0);
    }
  }
}

TEST_CASE("every field of a memory instruction's record reaches the grader under its own name, "
          "and no instruction record counts as a launch", "[sim][counters][protocol]") {
  parlab_sim::InstructionCounts shared_store;
  shared_store.code_offset = (std::uint64_t{1} << 33) + 0x1a2b;
  shared_store.shared = true;
  shared_store.store = true;
  shared_store.requests = (std::uint64_t{1} << 34) + 3;
  shared_store.conflict_ways = 5 * shared_store.requests + 7;
  parlab_sim::InstructionCounts global_load;
  global_load.code_offset = 0x4321;
  global_load.requests = 1000003;
  global_load.sectors = 32 * global_load.requests - 11;
  global_load.ideal_sectors = 4 * global_load.requests + 13;
  const std::string text = parlab_sim::detail::instruction_json_line("tile<16>", shared_store) + "\n" +
                           parlab_sim::detail::instruction_json_line("scale\x01", global_load) + "\n";
  const auto read = parlab::grader::parse_instruction_records(text);
  REQUIRE(read.size() == 2);
  CHECK(read[0].kernel == "tile<16>");
  CHECK(read[0].counts.code_offset == shared_store.code_offset);
  CHECK(read[0].counts.shared);
  CHECK(read[0].counts.store);
  CHECK(read[0].counts.requests == shared_store.requests);
  CHECK(read[0].counts.conflict_ways == shared_store.conflict_ways);
  CHECK(read[1].kernel == "scale?");  // reduced as the launch lines' names
  CHECK(read[1].counts.code_offset == 0x4321);
  CHECK_FALSE(read[1].counts.shared);
  CHECK_FALSE(read[1].counts.store);
  CHECK(read[1].counts.requests == global_load.requests);
  CHECK(read[1].counts.sectors == global_load.sectors);
  CHECK(read[1].counts.ideal_sectors == global_load.ideal_sectors);
  // Beside a launch's line, the records change none of its sums.
  const parlab_sim::LaunchCounts launch = parlab_sim::detail::launch_counts(distinct_summary());
  const auto totals = parlab::grader::parse_sim_counters(parlab_sim::detail::counts_json_line("k", launch) + text);
  REQUIRE(totals.has_value());
  CHECK(totals->launches == 1);
  CHECK(totals->global_sectors == launch.global_sectors);
  CHECK(totals->shared_conflict_ways == launch.shared_conflict_ways);
}

TEST_CASE("every field of a code block's record reaches the grader under its own name, and "
          "the launch lines' totals are kept per kernel", "[sim][counters][protocol]") {
  parlab_sim::CodeBlockCounts block;
  block.code_offset = (std::uint64_t{1} << 33) + 0x77;
  block.bytes = 41;
  block.warp_runs = (std::uint64_t{1} << 34) + 5;
  block.divergent_runs = (std::uint64_t{1} << 33) + 9;
  block.divergent_warps = 13;
  const std::string record = parlab_sim::detail::code_block_json_line("reduce<256>", block) + "\n";
  const auto read = parlab::grader::parse_code_block_records(record);
  REQUIRE(read.size() == 1);
  CHECK(read[0].kernel == "reduce<256>");
  CHECK(read[0].counts.code_offset == block.code_offset);
  CHECK(read[0].counts.bytes == block.bytes);
  CHECK(read[0].counts.warp_runs == block.warp_runs);
  CHECK(read[0].counts.divergent_runs == block.divergent_runs);
  CHECK(read[0].counts.divergent_warps == block.divergent_warps);
  // Two kernels' launches and the run's last line: each kernel's own sums, in the order
  // they first ran; the records and the last line belong to none.
  const parlab_sim::LaunchCounts launch = parlab_sim::detail::launch_counts(distinct_summary());
  const std::string text = parlab_sim::detail::counts_json_line("b", launch) + record +
                           parlab_sim::detail::counts_json_line("a", launch) +
                           parlab_sim::detail::counts_json_line("b", launch) +
                           parlab_sim::detail::counts_json_line(parlab_sim::kLaunchTailName, launch);
  const auto kernels = parlab::grader::sim_counters_by_kernel(text);
  REQUIRE(kernels.size() == 2);
  CHECK(kernels[0].first == "b");
  CHECK(kernels[0].second.launches == 2);
  CHECK(kernels[0].second.divergent_code_bytes == 2 * launch.divergent_code_bytes);
  CHECK(kernels[1].first == "a");
  CHECK(kernels[1].second.code_bytes == launch.code_bytes);
  CHECK(parlab::grader::parse_sim_counters(text)->launches == 4);
}
