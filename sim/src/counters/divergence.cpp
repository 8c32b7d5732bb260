#include "counters/divergence.hpp"

#include <algorithm>
#include <bit>
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
std::uint64_t g_launch_warps = 0;

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

void BlockDivergence::reset(bool sampled, unsigned lanes, unsigned sample) {
  sampled_ = sampled;
  full_ = false;
  lanes_ = lanes;
  sample_ = sample % 4;  // 4 x 8 warps fit the mask
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
                                std::uint64_t& sampled_warps) const {
  if (!sampled_) return;
  sampled_warps += std::min((lanes_ + 31) / 32, kSampledWarps);
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
      t.divergent_warp_mask |= std::uint32_t{1} << (sample_ * kSampledWarps + entry.warp);
    }
  }
}

void divergence_record(BlockDivergence& block, const void* pc) {
  if (const Lane* lane = t_lane) block.record(pc, lane->linear);
}

void fold_block_divergence(const BlockDivergence& block) {
  if (!block.sampled()) return;
  std::lock_guard lock(g_mutex);
  block.fold_into(g_launch_blocks, g_launch_warps);
}

DivergenceSummary summarize_divergence(const std::unordered_map<const void*, CodeBlockTotals>& per_block,
                                       std::uint64_t sampled_warps,
                                       const std::unordered_map<const void*, bool>& counted) {
  DivergenceSummary s;
  s.warps = sampled_warps;
  std::uint32_t divergent_warps = 0;
  for (const auto& [pc, t] : per_block) {
    const auto it = counted.find(pc);
    if (it == counted.end() || !it->second) continue;
    s.warp_blocks += t.warp_blocks;
    s.divergent_warp_blocks += t.divergent;
    s.warp_block_runs += t.warp_runs;
    s.divergent_runs += t.divergent_runs;
    divergent_warps |= t.divergent_warp_mask;
  }
  s.divergent_warps = static_cast<std::uint64_t>(std::popcount(divergent_warps));
  return s;
}

DivergenceSummary report_launch_divergence(const char* kernel_name, bool print_all) {
  std::unordered_map<const void*, CodeBlockTotals> per_block;
  std::uint64_t sampled_warps = 0;
  {
    std::lock_guard lock(g_mutex);
    per_block.swap(g_launch_blocks);
    std::swap(sampled_warps, g_launch_warps);
  }
  if (per_block.empty()) return {};  // a build without the coverage hook, or no sampled block
  // Which code blocks are the student's: one addr2line run for the new addresses.
  std::vector<const void*> addresses;
  addresses.reserve(per_block.size());
  for (const auto& entry : per_block) addresses.push_back(entry.first);
  const std::vector<CodeLocation> locations = code_locations_of(addresses);
  std::unordered_map<const void*, bool> counted;
  std::unordered_map<const void*, std::string> line_of;
  for (std::size_t i = 0; i < addresses.size(); ++i) {
    counted[addresses[i]] = !locations[i].library;
    // A block of the launch lambda (a kernel's exit g++ merged there) counts as the
    // kernel's code, but its line is the host launch line: it names no branch.
    line_of[addresses[i]] = locations[i].launch_thunk ? "an unknown line" : locations[i].line;
  }
  const DivergenceSummary s = summarize_divergence(per_block, sampled_warps, counted);
  if (s.warp_blocks == 0) return s;
  const bool finding = static_cast<double>(s.divergent_warp_blocks) >= kFindingShare * s.warp_blocks;
  if (!finding && !print_all) return s;
  // The worst code blocks first: divergent in the most warps, then the most idle runs.
  std::vector<std::pair<const void*, CodeBlockTotals>> worst;
  for (const auto& entry : per_block) {
    if (entry.second.divergent > 0 && counted[entry.first]) worst.push_back(entry);
  }
  std::sort(worst.begin(), worst.end(), [](const auto& a, const auto& b) {
    if (a.second.divergent != b.second.divergent) return a.second.divergent > b.second.divergent;
    if (a.second.divergent_runs != b.second.divergent_runs)
      return a.second.divergent_runs > b.second.divergent_runs;
    return a.first < b.first;
  });
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < worst.size() && lines.size() < kWorstLines; ++i) {
    const std::string& where = line_of[worst[i].first];
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
  if (!finding) return s;
  const std::string at = places.empty() ? std::string() : " (" + places + ")";
  report_finding("warp_divergence", std::string("kernel ") + kernel_name,
                 "warp divergence in kernel " + std::string(kernel_name) +
                     (lines.empty() ? std::string() : " at " + lines.front()),
                 "warp divergence in kernel " + std::string(kernel_name) + ": " + share +
                     " of the code blocks a warp ran were run by only some of its threads" + at +
                     ". Threads of one warp that take different branches run one after the "
                     "other: where you can, make a branch's condition the same for the 32 "
                     "threads of a warp (threadIdx.x / 32 rather than threadIdx.x % 2).");
  return s;
}

}  // namespace parlab_sim::detail
