// The counters channel's record, end to end: what the runtime writes for a launch
// (counters/access_counters) is what the grader reads back (grading/sim_counters), field
// by field, through the one definition both use (parlab_sim/launch_counts.hpp).
#include <catch2/catch.hpp>
#include <string>

#include "counters/access_counters.hpp"
#include "grading/sim_counters.hpp"
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
