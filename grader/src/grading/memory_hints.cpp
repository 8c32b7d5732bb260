#include "grading/memory_hints.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <utility>

#include "grading/sim_records.hpp"

namespace parlab::grader {
namespace {

std::optional<RunInstruction> read_record(const nlohmann::json& object) {
  using namespace parlab_sim;
  RunInstruction r;
  const auto offset = record_count(object, kInstructionOffsetKey);
  const auto kernel = record_text(object, kInstructionKernelKey, kMaxSimRecordKernelName);
  const auto memory = record_text(object, kInstructionMemoryKey, 16);
  const auto access = record_text(object, kInstructionAccessKey, 16);
  const auto requests = record_count(object, kInstructionRequestsKey);
  const auto sectors = record_count(object, kInstructionSectorsKey);
  const auto ideal = record_count(object, kInstructionIdealSectorsKey);
  const auto ways = record_count(object, kInstructionConflictWaysKey);
  if (!offset || !kernel || !memory || !access || !requests || !sectors || !ideal || !ways) return std::nullopt;
  if (*offset == 0 || *requests == 0) return std::nullopt;
  if ((*memory != kSharedMemory && *memory != kGlobalMemory) || (*access != kStoreAccess && *access != kLoadAccess))
    return std::nullopt;
  r.kernel = *kernel;
  r.counts = {*offset, *memory == kSharedMemory, *access == kStoreAccess, *requests, *sectors, *ideal, *ways};
  // What the simulator cannot count: a global request touches at least one sector, and
  // never fewer than its bytes need; a shared one has 1 to 32 ways.
  if (r.counts.shared) {
    if (r.counts.conflict_ways < r.counts.requests || r.counts.conflict_ways > 32 * r.counts.requests) return std::nullopt;
  } else if (r.counts.sectors < r.counts.requests || r.counts.ideal_sectors > r.counts.sectors) {
    return std::nullopt;
  }
  return r;
}

std::string whole(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", value);
  return text;
}

SimFinding bank_conflict_finding(const RunInstruction& r, const std::string& where) {
  const double ways = static_cast<double>(r.counts.conflict_ways) / static_cast<double>(r.counts.requests);
  const std::string what = r.counts.store ? "stores" : "loads";
  return {kBankConflictsKind, "shared-memory bank conflicts at " + where,
          "shared-memory " + what + " at " + where + " in kernel " + r.kernel + " have " +
              std::to_string(static_cast<int>(ways + 0.5)) +
              "-way bank conflicts per request (1 is ideal): the 32 lanes of a warp hit the same "
              "bank at different words, so the accesses are serialized. Consecutive threads should "
              "use consecutive words (tile[ty][tx], or pad a row: tile[32][33])."};
}

SimFinding uncoalesced_finding(const RunInstruction& r, const std::string& where) {
  const auto requests = static_cast<double>(r.counts.requests);
  const std::string what = r.counts.store ? "stores" : "loads";
  return {kUncoalescedAccessKind, "uncoalesced " + what + " at " + where,
          "global-memory " + what + " at " + where + " in kernel " + r.kernel + " need " +
              whole(static_cast<double>(r.counts.sectors) / requests) + " sectors per request; " +
              whole(static_cast<double>(r.counts.ideal_sectors) / requests) +
              " is ideal: consecutive threads should access consecutive addresses (coalescing), so "
              "a warp's 32 accesses share a few 32-byte sectors."};
}

bool deserves_hint(const parlab_sim::InstructionCounts& c) {
  const auto requests = static_cast<double>(c.requests);
  if (c.shared) return static_cast<double>(c.conflict_ways) / requests >= kConflictWaysHint;
  const double sectors = static_cast<double>(c.sectors) / requests;
  const double ideal = static_cast<double>(c.ideal_sectors) / requests;
  return sectors >= kSectorsOverIdealHint * ideal && sectors >= kSectorsHint;
}

}  // namespace

std::vector<RunInstruction> parse_instruction_records(const std::string& text) {
  return records_with_key<RunInstruction>(text, parlab_sim::kInstructionOffsetKey, parlab_sim::kMaxInstructionRecords, read_record);
}

std::vector<SimFinding> memory_hint_findings(const std::vector<RunInstruction>& instructions,
                                             const InstructionPlaceNamer& place_of) {
  // Each kernel's requests of each memory: what an instruction's share is of.
  std::map<std::pair<std::string, bool>, std::uint64_t> kernel_requests;
  for (const RunInstruction& r : instructions) kernel_requests[{r.kernel, r.counts.shared}] += r.counts.requests;
  std::vector<const RunInstruction*> order;
  for (const RunInstruction& r : instructions) order.push_back(&r);
  std::stable_sort(order.begin(), order.end(), [](const RunInstruction* a, const RunInstruction* b) {
    return a->counts.requests > b->counts.requests;
  });
  std::vector<SimFinding> findings;
  for (const RunInstruction* r : order) {
    const bool weighty = r->counts.requests * kWeightyShareDivisor >= kernel_requests[{r->kernel, r->counts.shared}];
    if (!weighty || !deserves_hint(r->counts)) continue;
    std::string where = place_of ? place_of(r->counts.code_offset) : std::string();
    if (where.empty()) where = "an unknown line";
    SimFinding finding = r->counts.shared ? bank_conflict_finding(*r, where) : uncoalesced_finding(*r, where);
    const bool said = std::any_of(findings.begin(), findings.end(), [&](const SimFinding& f) {
      return f.kind == finding.kind && f.summary == finding.summary;
    });
    if (!said) findings.push_back(std::move(finding));
  }
  return findings;
}

}  // namespace parlab::grader
