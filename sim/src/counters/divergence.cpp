#include "counters/divergence.hpp"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <utility>

#include "exec/execution_state.hpp"
#include "race/source_lines.hpp"
#include "report/diagnostics.hpp"

namespace parlab_sim::detail {

thread_local constinit BlockDivergence* t_divergence = nullptr;

namespace {

constexpr std::size_t kInitialSlots = 256;
constexpr std::size_t kMaxSlots = std::size_t{1} << 16;  // 9 MiB: far more code blocks than a kernel has
// A launch's share of divergent (warp, code block) pairs from which the simulator
// reports a finding (the grader then judges it against the reference's run).
constexpr double kFindingShare = 0.10;
constexpr std::size_t kWorstLines = 3;

std::mutex g_mutex;
std::unordered_map<const void*, CodeBlockTotals> g_launch_blocks;
DivergenceSummary g_launch_summary;

std::size_t slot_of(const void* pc, unsigned warp, std::size_t mask) {
  const std::uint64_t key = reinterpret_cast<std::uintptr_t>(pc) * 0x9E3779B97F4A7C15ull + warp;
  return static_cast<std::size_t>(key ^ (key >> 29)) & mask;
}

std::string percent(std::uint64_t part, std::uint64_t whole) {
  char text[16];
  std::snprintf(text, sizeof text, "%.0f%%", whole == 0 ? 0.0 : 100.0 * part / whole);
  return text;
}

}  // namespace

WarpBlockRuns warp_block_runs(const std::uint32_t (&runs)[32], unsigned present_lanes) {
  WarpBlockRuns r;
  if (present_lanes == 0) return r;
  r.most = r.fewest = runs[0];
  for (unsigned lane = 1; lane < present_lanes && lane < 32; ++lane) {
    r.most = std::max(r.most, runs[lane]);
    r.fewest = std::min(r.fewest, runs[lane]);
  }
  return r;
}

void BlockDivergence::reset(bool sampled, unsigned lanes) {
  sampled_ = sampled;
  full_ = false;
  lanes_ = lanes;
  used_ = 0;
  if (!sampled) return;
  if (table_.size() != kInitialSlots) {
    table_.assign(kInitialSlots, Entry{});
  } else {
    std::fill(table_.begin(), table_.end(), Entry{});
  }
}

BlockDivergence::Entry* BlockDivergence::find_or_insert(const void* pc, unsigned warp) {
  const std::size_t mask = table_.size() - 1;
  for (std::size_t slot = slot_of(pc, warp, mask);; slot = (slot + 1) & mask) {
    Entry& entry = table_[slot];
    if (entry.pc == pc && entry.warp == warp) return &entry;
    if (entry.pc != nullptr) continue;
    // A new code block for this warp: keep the table at most half full.
    if ((used_ + 1) * 2 > table_.size()) {
      if (table_.size() >= kMaxSlots) {
        full_ = true;
        return nullptr;
      }
      grow();
      return find_or_insert(pc, warp);
    }
    ++used_;
    entry.pc = pc;
    entry.warp = warp;
    return &entry;
  }
}

void BlockDivergence::grow() {
  std::vector<Entry> old(table_.size() * 2);
  old.swap(table_);
  const std::size_t mask = table_.size() - 1;
  for (const Entry& entry : old) {
    if (entry.pc == nullptr) continue;
    std::size_t slot = slot_of(entry.pc, entry.warp, mask);
    while (table_[slot].pc != nullptr) slot = (slot + 1) & mask;
    table_[slot] = entry;
  }
}

void BlockDivergence::record(const void* pc, unsigned lane) {
  const unsigned warp = lane / 32;
  if (warp >= kSampledWarps || full_) return;
  if (Entry* entry = find_or_insert(pc, warp)) ++entry->runs[lane % 32];
}

void BlockDivergence::fold_into(std::unordered_map<const void*, CodeBlockTotals>& totals,
                                DivergenceSummary& summary) const {
  if (!sampled_) return;
  const unsigned warps = std::min((lanes_ + 31) / 32, kSampledWarps);
  bool divergent_warp[kSampledWarps] = {};
  for (const Entry& entry : table_) {
    if (entry.pc == nullptr) continue;
    const unsigned present = std::min(32u, lanes_ - entry.warp * 32);
    const WarpBlockRuns runs = warp_block_runs(entry.runs, present);
    CodeBlockTotals& t = totals[entry.pc];
    ++t.warp_blocks;
    t.warp_runs += runs.most;
    if (runs.divergent()) {
      ++t.divergent;
      t.divergent_runs += runs.most - runs.fewest;
      divergent_warp[entry.warp] = true;
    }
  }
  summary.warps += warps;
  for (unsigned w = 0; w < warps; ++w) summary.divergent_warps += divergent_warp[w] ? 1 : 0;
}

void divergence_record(BlockDivergence& block, const void* pc) {
  if (const Lane* lane = t_lane) block.record(pc, lane->linear);
}

void fold_block_divergence(const BlockDivergence& block) {
  if (!block.sampled()) return;
  std::lock_guard lock(g_mutex);
  block.fold_into(g_launch_blocks, g_launch_summary);
}

DivergenceSummary take_launch_divergence(std::unordered_map<const void*, CodeBlockTotals>& per_block) {
  std::lock_guard lock(g_mutex);
  per_block.clear();
  per_block.swap(g_launch_blocks);
  DivergenceSummary s = std::exchange(g_launch_summary, DivergenceSummary{});
  for (const auto& [pc, t] : per_block) {
    s.warp_blocks += t.warp_blocks;
    s.divergent_warp_blocks += t.divergent;
    s.warp_block_runs += t.warp_runs;
    s.divergent_runs += t.divergent_runs;
  }
  return s;
}

void report_launch_divergence(const char* kernel_name, const DivergenceSummary& s,
                              const std::unordered_map<const void*, CodeBlockTotals>& per_block,
                              bool print_all) {
  if (s.warp_blocks == 0) return;  // a build without the coverage hook, or no sampled block
  const bool finding = static_cast<double>(s.divergent_warp_blocks) >= kFindingShare * s.warp_blocks;
  if (!finding && !print_all) return;
  // The worst code blocks first: divergent in the most warps, then the most idle runs.
  std::vector<std::pair<const void*, CodeBlockTotals>> worst;
  for (const auto& entry : per_block) {
    if (entry.second.divergent > 0) worst.push_back(entry);
  }
  std::sort(worst.begin(), worst.end(), [](const auto& a, const auto& b) {
    if (a.second.divergent != b.second.divergent) return a.second.divergent > b.second.divergent;
    if (a.second.divergent_runs != b.second.divergent_runs)
      return a.second.divergent_runs > b.second.divergent_runs;
    return a.first < b.first;
  });
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < worst.size() && i < 4 * kWorstLines && lines.size() < kWorstLines; ++i) {
    const std::string where = source_line_of(worst[i].first);
    if (where == "an unknown line") continue;
    if (std::find(lines.begin(), lines.end(), where) == lines.end()) lines.push_back(where);
  }
  std::string places;
  for (const std::string& where : lines) places += (places.empty() ? "" : ", ") + where;
  const std::string share = percent(s.divergent_warp_blocks, s.warp_blocks);
  if (print_all) {
    std::fprintf(stderr,
                 "parlab-sim: counters: kernel %s, divergence: %llu of %llu code blocks run by a "
                 "warp were run by only some of its lanes (%s), %llu of %llu warp runs "
                 "divergent, %llu of %llu sampled warps divergent%s%s\n",
                 kernel_name, static_cast<unsigned long long>(s.divergent_warp_blocks),
                 static_cast<unsigned long long>(s.warp_blocks), share.c_str(),
                 static_cast<unsigned long long>(s.divergent_runs),
                 static_cast<unsigned long long>(s.warp_block_runs),
                 static_cast<unsigned long long>(s.divergent_warps),
                 static_cast<unsigned long long>(s.warps), places.empty() ? "" : "; worst at ",
                 places.c_str());
  }
  if (!finding) return;
  const std::string at = places.empty() ? std::string() : " (" + places + ")";
  report_finding("warp_divergence", std::string("kernel ") + kernel_name,
                 "warp divergence in kernel " + std::string(kernel_name) +
                     (lines.empty() ? std::string() : " at " + lines.front()),
                 "warp divergence in kernel " + std::string(kernel_name) + ": " + share +
                     " of the code blocks a warp ran were run by only some of its threads" + at +
                     ". Threads of one warp that take different branches run one after the "
                     "other: where you can, make a branch's condition the same for the 32 "
                     "threads of a warp (threadIdx.x / 32 rather than threadIdx.x % 2).");
}

}  // namespace parlab_sim::detail
