#include "counters/divergence.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <mutex>
#include <utility>

#include "counters/code_block_length.hpp"
#include "counters/run_records.hpp"
#include "lane/lane.hpp"
#include "report/source_lines.hpp"

namespace parlab_sim::detail {

thread_local constinit BlockDivergence* t_divergence = nullptr;

namespace {

constexpr std::size_t kInitialSlots = 256;
constexpr std::size_t kMaxSlots = std::size_t{1} << 16;  // 9 MiB: far more code blocks than a kernel has
constexpr std::size_t kWorstLines = 3;

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
  std::uint64_t total = runs[0];
  const unsigned lanes = std::min(present_lanes, 32u);
  for (unsigned lane = 1; lane < lanes; ++lane) {
    r.most = std::max(r.most, runs[lane]);
    r.fewest = std::min(r.fewest, runs[lane]);
    total += runs[lane];
  }
  constexpr unsigned kSideLanes = 2;
  r.side_work = lanes > 2 * kSideLanes &&
                (total <= std::uint64_t{kSideLanes} * r.most ||
                 total >= std::uint64_t{lanes - kSideLanes} * r.most);
  return r;
}

bool sides_of_one_branch(const std::uint32_t (&mine)[32], const std::uint32_t (&other)[32],
                         unsigned present_lanes) {
  const unsigned lanes = std::min(present_lanes, 32u);
  if (lanes == 0) return false;
  const std::uint64_t sum = std::uint64_t{mine[0]} + other[0];
  if (sum == 0) return false;
  for (unsigned lane = 1; lane < lanes; ++lane) {
    if (std::uint64_t{mine[lane]} + other[lane] != sum) return false;
  }
  return true;
}

bool same_path(const std::uint32_t (&mine)[32], const std::uint32_t (&other)[32],
               unsigned present_lanes) {
  const unsigned lanes = std::min(present_lanes, 32u);
  bool ran = false;
  for (unsigned lane = 0; lane < lanes; ++lane) {
    if (mine[lane] != other[lane]) return false;
    ran = ran || mine[lane] != 0;
  }
  return ran;
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

std::vector<const void*> BlockDivergence::code_addresses() const {
  std::vector<const void*> addresses;
  if (!sampled_) return addresses;
  for (const Entry& entry : table_) {
    if (entry.pc != nullptr) addresses.push_back(entry.pc);
  }
  return addresses;
}

void BlockDivergence::fold_into(std::unordered_map<const void*, CodeBlockTotals>& totals,
                                std::uint64_t& sampled_warps,
                                const std::unordered_map<const void*, bool>& library) const {
  if (!sampled_) return;
  sampled_warps += std::min((lanes_ + 31) / 32, kSampledWarps);
  const auto is_library = [&](const void* pc) {
    const auto it = library.find(pc);
    return it != library.end() && it->second;
  };
  // Per warp, the library's code blocks that only some lanes ran: branches into the
  // simulator's code, whose other side and whose own continuation are not the student's
  // divergence.
  std::vector<const Entry*> library_sides[kSampledWarps];
  for (const Entry& entry : table_) {
    if (entry.pc == nullptr || !is_library(entry.pc)) continue;
    const unsigned present = std::min(32u, lanes_ - entry.warp * 32);
    const WarpBlockRuns runs = warp_block_runs(entry.runs, present);
    if (runs.most != runs.fewest) library_sides[entry.warp].push_back(&entry);
  }
  for (const Entry& entry : table_) {
    if (entry.pc == nullptr) continue;
    const unsigned present = std::min(32u, lanes_ - entry.warp * 32);
    WarpBlockRuns runs = warp_block_runs(entry.runs, present);
    if (runs.divergent() && !is_library(entry.pc)) {
      for (const Entry* side : library_sides[entry.warp]) {
        // The join copied onto the student's side, or onto the runtime call's side.
        if (sides_of_one_branch(entry.runs, side->runs, present) ||
            same_path(entry.runs, side->runs, present)) {
          runs.side_work = true;
          break;
        }
      }
    }
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

void fold_block_divergence(const BlockDivergence& block, LaunchDivergenceTotals& launch) {
  if (!block.sampled()) return;
  // Which code blocks are the simulator's (one addr2line run per new address; cached).
  const std::vector<const void*> addresses = block.code_addresses();
  const std::vector<CodeLocation> locations = code_locations_of(addresses);
  std::unordered_map<const void*, bool> library;
  for (std::size_t i = 0; i < addresses.size(); ++i) library[addresses[i]] = locations[i].library;
  std::lock_guard lock(launch.mutex);
  block.fold_into(launch.code_blocks, launch.sampled_warps, library);
}

DivergenceSummary summarize_divergence(const std::unordered_map<const void*, CodeBlockTotals>& per_block,
                                       std::uint64_t sampled_warps,
                                       const std::unordered_map<const void*, bool>& counted,
                                       const std::unordered_map<const void*, std::uint32_t>& length_of) {
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
    const auto length = length_of.find(pc);
    const std::uint64_t bytes = length == length_of.end() ? kUnknownCodeBlockBytes : length->second;
    s.code_bytes += bytes * t.warp_runs;
    s.divergent_code_bytes += bytes * t.divergent_runs;
    divergent_warps |= t.divergent_warp_mask;
  }
  s.divergent_warps = static_cast<std::uint64_t>(std::popcount(divergent_warps));
  return s;
}

namespace {

// What the launch's blocks folded in, taken once they have all ended.
std::pair<std::unordered_map<const void*, CodeBlockTotals>, std::uint64_t> take_totals(
    LaunchDivergenceTotals& launch) {
  std::lock_guard lock(launch.mutex);
  return {std::move(launch.code_blocks), launch.sampled_warps};
}

// PARLAB_SIM_COUNTERS=2: the launch's divergence on stderr, with its worst lines, for a
// person running the program by hand (the grader reads none of it: its hint comes from
// the code block records, counters/run_records).
void print_divergence(const char* kernel_name, const DivergenceSummary& s,
                      const std::unordered_map<const void*, CodeBlockTotals>& per_block,
                      std::unordered_map<const void*, bool>& counted,
                      std::unordered_map<const void*, std::string>& line_of,
                      std::unordered_map<const void*, std::uint32_t>& length_of) {
  // The worst code blocks first: the most divergent work, then divergent in the most warps.
  std::vector<std::pair<const void*, CodeBlockTotals>> worst;
  for (const auto& entry : per_block) {
    if (entry.second.divergent > 0 && counted[entry.first]) worst.push_back(entry);
  }
  const auto divergent_bytes = [&](const std::pair<const void*, CodeBlockTotals>& entry) {
    return entry.second.divergent_runs * length_of[entry.first];
  };
  std::sort(worst.begin(), worst.end(), [&](const auto& a, const auto& b) {
    if (divergent_bytes(a) != divergent_bytes(b)) return divergent_bytes(a) > divergent_bytes(b);
    if (a.second.divergent != b.second.divergent) return a.second.divergent > b.second.divergent;
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
  const std::string share = percent(s.divergent_code_bytes, s.code_bytes);
  std::fprintf(stderr,
               "parlab-sim: counters: kernel %s, divergence: %llu of %llu code blocks run by a "
               "warp were run by only some of its lanes (%s), %llu of %llu warp runs "
               "divergent, %s of the work (code bytes x runs: %llu of %llu), "
               "%llu of %llu sampled warps divergent%s%s\n",
               kernel_name, static_cast<unsigned long long>(s.divergent_warp_blocks),
               static_cast<unsigned long long>(s.warp_blocks),
               percent(s.divergent_warp_blocks, s.warp_blocks).c_str(),
               static_cast<unsigned long long>(s.divergent_runs),
               static_cast<unsigned long long>(s.warp_block_runs), share.c_str(),
               static_cast<unsigned long long>(s.divergent_code_bytes),
               static_cast<unsigned long long>(s.code_bytes),
               static_cast<unsigned long long>(s.divergent_warps),
               static_cast<unsigned long long>(s.warps), places.empty() ? "" : "; worst at ",
               places.c_str());
}

}  // namespace

DivergenceSummary report_launch_divergence(const char* kernel_name, bool print_all,
                                           LaunchDivergenceTotals& launch) {
  const auto [per_block, sampled_warps] = take_totals(launch);
  if (per_block.empty()) return {};  // a build without the coverage hook, or no sampled block
  // Which code blocks are the student's: one addr2line run for the new addresses.
  std::vector<const void*> addresses;
  addresses.reserve(per_block.size());
  for (const auto& entry : per_block) addresses.push_back(entry.first);
  const std::vector<CodeLocation> locations = code_locations_of(addresses);
  std::unordered_map<const void*, bool> counted;
  std::unordered_map<const void*, std::string> line_of;
  std::unordered_map<const void*, std::uint32_t> length_of;
  for (std::size_t i = 0; i < addresses.size(); ++i) {
    counted[addresses[i]] = !locations[i].library;
    length_of[addresses[i]] = code_block_length(addresses[i]);
    // A block of the launch lambda (a kernel's exit g++ merged there) counts as the
    // kernel's code, but its line is the host launch line: it names no branch.
    line_of[addresses[i]] = locations[i].launch_thunk ? "an unknown line" : locations[i].line;
  }
  const DivergenceSummary s = summarize_divergence(per_block, sampled_warps, counted, length_of);
  add_launch_code_blocks(kernel_name, per_block, counted, length_of);
  if (print_all && s.warp_blocks != 0 && s.code_bytes != 0) {
    print_divergence(kernel_name, s, per_block, counted, line_of, length_of);
  }
  return s;
}

}  // namespace parlab_sim::detail
