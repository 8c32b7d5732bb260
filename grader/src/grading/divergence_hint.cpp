#include "grading/divergence_hint.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "grading/sim_records.hpp"

namespace parlab::grader {
namespace {

constexpr std::uint64_t kMaxBlockBytes = std::uint64_t{1} << 20;

std::optional<RunCodeBlock> read_record(const nlohmann::json& object) {
  using namespace parlab_sim;
  const auto kernel = record_text(object, kCodeBlockKernelKey, kMaxSimRecordKernelName);
  const auto offset = record_count(object, kCodeBlockOffsetKey);
  const auto bytes = record_count(object, kCodeBlockBytesKey);
  const auto runs = record_count(object, kCodeBlockWarpRunsKey);
  const auto divergent_runs = record_count(object, kCodeBlockDivergentRunsKey);
  const auto divergent_warps = record_count(object, kCodeBlockDivergentWarpsKey);
  if (!kernel || !offset || !bytes || !runs || !divergent_runs ||
      !divergent_warps) {
    return std::nullopt;
  }
  RunCodeBlock r{*kernel, {*offset, *bytes, *runs, *divergent_runs, *divergent_warps}};
  // What the simulator cannot count: a block of no length, divergent runs past the runs.
  if (*offset == 0 || *bytes == 0 || *bytes > kMaxBlockBytes ||
      *divergent_runs == 0 || *divergent_runs > *runs || *divergent_warps == 0) {
    return std::nullopt;
  }
  return r;
}

std::string percent(std::uint64_t part, std::uint64_t whole) {
  char text[16];
  std::snprintf(text, sizeof text, "%.0f%%", whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole));
  return text;
}

// The lines of the kernel's worst blocks, at most kWorstDivergentLines, each once.
std::vector<std::string> worst_lines(const std::string& kernel, const std::vector<RunCodeBlock>& blocks,
                                     const InstructionPlaceNamer& place_of) {
  std::vector<const RunCodeBlock*> worst;
  for (const RunCodeBlock& b : blocks) {
    if (b.kernel == kernel) worst.push_back(&b);
  }
  const auto work = [](const RunCodeBlock* b) { return b->counts.bytes * b->counts.divergent_runs; };
  std::sort(worst.begin(), worst.end(), [&](const RunCodeBlock* a, const RunCodeBlock* b) {
    if (work(a) != work(b)) return work(a) > work(b);
    if (a->counts.divergent_warps != b->counts.divergent_warps) return a->counts.divergent_warps > b->counts.divergent_warps;
    return a->counts.code_offset < b->counts.code_offset;
  });
  std::vector<std::string> lines;
  for (const RunCodeBlock* b : worst) {
    if (lines.size() == kWorstDivergentLines || !place_of) break;
    const std::string where = place_of(b->counts.code_offset);
    if (!where.empty() && std::find(lines.begin(), lines.end(), where) == lines.end()) lines.push_back(where);
  }
  return lines;
}

}  // namespace

std::vector<RunCodeBlock> parse_code_block_records(const std::string& text) {
  return records_with_key<RunCodeBlock>(text, parlab_sim::kCodeBlockOffsetKey, parlab_sim::kMaxCodeBlockRecords, read_record);
}

std::vector<SimFinding> divergence_findings(const std::vector<std::pair<std::string, CounterTotals>>& kernels,
                                            const std::vector<RunCodeBlock>& blocks,
                                            const InstructionPlaceNamer& place_of) {
  std::vector<SimFinding> findings;
  for (const auto& [kernel, t] : kernels) {
    if (t.code_bytes == 0 ||
        static_cast<double>(t.divergent_code_bytes) < kDivergentWorkShareHint * static_cast<double>(t.code_bytes)) {
      continue;
    }
    const std::vector<std::string> lines = worst_lines(kernel, blocks, place_of);
    std::string places;
    for (const std::string& where : lines) places += (places.empty() ? "" : ", ") + where;
    findings.push_back(
        {kWarpDivergenceKind,
         "warp divergence in kernel " + kernel + (lines.empty() ? std::string() : " at " + lines.front()),
         "warp divergence in kernel " + kernel + ": " + percent(t.divergent_code_bytes, t.code_bytes) +
             " of the work its warps ran (code weighted by length and runs) was run by only some of "
             "their threads" + (places.empty() ? std::string() : " (" + places + ")") +
             ". Threads of one warp that take different branches run one after the other: where you "
             "can, make a branch's condition the same for the 32 threads of a warp (threadIdx.x / 32 "
             "rather than threadIdx.x % 2)."});
  }
  return findings;
}

}  // namespace parlab::grader
