#include "counters/access_counters.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "config/runtime_settings.hpp"
#include "counters/host_accesses.hpp"
#include "counters/run_records.hpp"
#include "device/launch_limits.hpp"
#include "report/sealed_channel.hpp"
#include "report/source_lines.hpp"

namespace parlab_sim::detail {

namespace {

// PARLAB_SIM_COUNTERS=2 also prints every sampled instruction's figures on stderr.
bool print_all() { return runtime_settings().counters == 2; }

// Every access of every block is counted, so a grading's figures are the same every
// time and a kernel cannot be good only where counted. What a block keeps until it ends
// is bounded: past kStoredAccesses, an instruction's first kAlwaysStored executions per
// lane are still kept (so each has a sample) and later ones only counted; the block's
// figures of such an instruction are then scaled by its executions (fold_into).
constexpr std::size_t kStoredAccesses = std::size_t{1} << 21;
constexpr unsigned kAlwaysStored = 64;
constexpr std::uintptr_t kSector = 32;

// Lines per process: a solver's thousand launches. The launches past it are summed into
// the run's last line (write_counters_tail), never left out: a program must not be able
// to push its real kernel past the limit with cheap launches first.
constexpr unsigned kMaxSummaryLines = 256;

using Accesses = std::vector<std::pair<std::uintptr_t, std::size_t>>;

// A kept access's sort key, high bits first: the instruction's index in the block (32
// bits), the warp (5: a block has at most kMaxThreadsPerBlock = 1024 threads), the lane's
// occurrence of the instruction (22: a kept occurrence is below kStoredAccesses, see
// record_merged), the lane within its warp (5). One request is one key without its lane
// bits.
constexpr unsigned kLaneBits = 5;
constexpr unsigned kOccurrenceBits = 22;
static_assert(kMaxThreadsPerBlock <= (32u << 5));
static_assert(kStoredAccesses + kAlwaysStored <= (std::size_t{1} << kOccurrenceBits));

std::uint64_t request_key(std::uint32_t instruction, unsigned lane, std::uint32_t occurrence) {
  return (std::uint64_t{instruction} << 32) | (std::uint64_t{lane / 32} << (kOccurrenceBits + kLaneBits)) |
         (std::uint64_t{occurrence} << kLaneBits) | (lane % 32);
}
std::uint64_t request_of(std::uint64_t key) { return key >> kLaneBits; }
std::uint32_t instruction_of(std::uint64_t key) { return static_cast<std::uint32_t>(key >> 32); }

}  // namespace

std::uint64_t sectors_of(const Accesses& accesses) {
  thread_local std::vector<std::uintptr_t> sectors;  // reused: one call per request
  sectors.clear();
  for (const auto& [address, bytes] : accesses) {
    for (std::uintptr_t s = address / kSector; s <= (address + bytes - 1) / kSector; ++s) sectors.push_back(s);
  }
  std::sort(sectors.begin(), sectors.end());
  return static_cast<std::uint64_t>(std::unique(sectors.begin(), sectors.end()) - sectors.begin());
}

// The fewest sectors the same bytes could take: the distinct bytes, packed.
std::uint64_t ideal_sectors_of(const Accesses& accesses) {
  thread_local std::vector<std::uintptr_t> words;  // reused: one call per request
  words.clear();
  std::size_t bytes = 4;
  for (const auto& [address, size] : accesses) {
    words.push_back(address / size);
    bytes = size;
  }
  std::sort(words.begin(), words.end());
  const auto distinct = static_cast<std::size_t>(std::unique(words.begin(), words.end()) - words.begin());
  return (distinct * bytes + kSector - 1) / kSector;
}

unsigned bank_conflict_degree(const Accesses& accesses) {
  // A GPU serves 128 bytes of shared memory per phase: 32 lanes of 4-byte accesses,
  // 16 of 8-byte, 8 of 16-byte ones.
  std::size_t widest = 4;
  for (const auto& access : accesses) widest = std::max(widest, access.second);
  const std::size_t lanes_per_phase = std::max<std::size_t>(1, 128 / widest);
  unsigned degree = 1;
  // The distinct (bank, word) pairs of a phase, sorted: a bank's degree is its run.
  thread_local std::vector<std::pair<unsigned, std::uintptr_t>> words;
  for (std::size_t phase = 0; phase < accesses.size(); phase += lanes_per_phase) {
    words.clear();
    const std::size_t end = std::min(accesses.size(), phase + lanes_per_phase);
    for (std::size_t i = phase; i < end; ++i) {
      const auto& [address, bytes] = accesses[i];
      for (std::uintptr_t w = address / 4; w <= (address + bytes - 1) / 4; ++w)
        words.emplace_back(static_cast<unsigned>(w % 32), w);
    }
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    for (std::size_t k = 0; k < words.size();) {
      std::size_t m = k + 1;
      while (m < words.size() && words[m].first == words[k].first) ++m;
      degree = std::max(degree, static_cast<unsigned>(m - k));
      k = m;
    }
  }
  return degree;
}

void BlockCounters::reset(bool sampled, unsigned lanes) {
  sampled_ = sampled;
  kept_.clear();
  threads_ = sampled ? lanes : 0;
  global_loads_ = 0;
  global_stores_ = 0;
  shared_accesses_ = 0;
  mergers_.assign(sampled ? lanes : 0, {});
  occurrences_.assign(sampled ? lanes : 0, {});
  instructions_.clear();
  instruction_of_.clear();
}

std::uint32_t BlockCounters::instruction_index(const void* pc) {
  const auto [it, added] = instruction_of_.emplace(pc, static_cast<std::uint32_t>(instructions_.size()));
  if (added) instructions_.push_back(pc);
  return it->second;
}

void BlockCounters::record(const void* pc, unsigned lane, std::uintptr_t address,
                           std::size_t bytes, bool shared, bool write) {
  const VectorPiece piece{pc, address, bytes, shared, write};
  VectorMerger& merger = mergers_[lane];
  if (merger.offer(piece)) return;
  VectorPiece ready[4];
  const unsigned count = merger.drain(ready);
  for (unsigned i = 0; i < count; ++i) record_merged(ready[i], lane);
  if (!merger.offer(piece)) record_merged(piece, lane);
}

void BlockCounters::flush() {
  for (unsigned lane = 0; lane < mergers_.size(); ++lane) {
    VectorPiece ready[4];
    const unsigned count = mergers_[lane].drain(ready);
    for (unsigned i = 0; i < count; ++i) record_merged(ready[i], lane);
  }
}

void BlockCounters::record_merged(const VectorPiece& access, unsigned lane) {
  ++(access.shared ? shared_accesses_ : access.write ? global_stores_ : global_loads_);
  std::vector<LaneCount>& counts = occurrences_[lane];
  auto it = std::find_if(counts.begin(), counts.end(),
                         [&](const LaneCount& c) { return c.pc == access.pc; });
  if (it == counts.end()) it = counts.insert(counts.end(), LaneCount{access.pc, 0, instruction_index(access.pc)});
  const std::uint32_t occurrence = it->count++;
  // Past the cap, only an instruction's first kAlwaysStored executions per lane are kept;
  // a later one is kept only while the list is under the cap, and so are all the lane's
  // earlier ones: a kept occurrence is below kStoredAccesses (request_key's bits).
  if (occurrence >= kAlwaysStored && kept_.size() >= kStoredAccesses) return;
  if (lane >= kMaxThreadsPerBlock) return;  // no launch has such a block (device/launch_limits)
  kept_.push_back(Kept{request_key(it->instruction, lane, occurrence), access.address,
                       static_cast<std::uint32_t>(access.bytes), access.shared, access.write});
}

void BlockCounters::fold_request(const Kept* first, const Kept* end, InstructionTotals& t) const {
  thread_local Accesses accesses;  // reused: one call per request
  accesses.clear();
  for (const Kept* k = first; k != end; ++k) accesses.push_back({k->address, k->bytes});
  t.shared = first->shared;
  t.write = first->write;
  ++t.requests;
  if (first->shared) {
    t.conflict_ways += bank_conflict_degree(accesses);
  } else {
    t.sectors += sectors_of(accesses);
    t.ideal_sectors += ideal_sectors_of(accesses);
  }
}

void BlockCounters::fold_into(std::map<const void*, InstructionTotals>& totals) const {
  // Requests in lane order (bank conflicts are counted per phase of lanes).
  std::sort(kept_.begin(), kept_.end(), [](const Kept& a, const Kept& b) { return a.key < b.key; });
  std::map<const void*, InstructionTotals> block;
  std::map<const void*, std::uint64_t> kept_executions;
  for (std::size_t i = 0; i < kept_.size();) {
    const std::uint64_t request = request_of(kept_[i].key);
    std::size_t j = i + 1;
    while (j < kept_.size() && request_of(kept_[j].key) == request) ++j;
    const void* pc = instructions_[instruction_of(kept_[i].key)];
    fold_request(kept_.data() + i, kept_.data() + j, block[pc]);
    kept_executions[pc] += j - i;
    i = j;
  }
  std::map<const void*, std::uint64_t> all_executions;
  for (const auto& lane : occurrences_) {
    for (const LaneCount& c : lane) all_executions[c.pc] += c.count;
  }
  for (const auto& [pc, b] : block) {
    const std::uint64_t all = all_executions[pc];
    const std::uint64_t kept = kept_executions[pc];
    // All kept: exact. Otherwise the kept executions stand for all of them.
    const auto scaled = [all, kept](std::uint64_t n) {
      return all == kept ? n : (n * all + kept / 2) / kept;
    };
    InstructionTotals& t = totals[pc];
    t.shared = b.shared;
    t.write = b.write;
    t.requests += scaled(b.requests);
    t.sectors += scaled(b.sectors);
    t.ideal_sectors += scaled(b.ideal_sectors);
    t.conflict_ways += scaled(b.conflict_ways);
  }
}

void fold_block_counters(BlockCounters& block, LaunchAccessTotals& launch) {
  if (!block.sampled()) return;
  block.flush();
  std::lock_guard lock(launch.mutex);
  block.fold_into(launch.instructions);
  launch.threads += block.threads();
  launch.lane_accesses.global_loads += block.global_loads();
  launch.lane_accesses.global_stores += block.global_stores();
  launch.lane_accesses.shared_accesses += block.shared_accesses();
}

LaunchSummary summarize(const std::map<const void*, InstructionTotals>& totals,
                        std::uint64_t threads, const LaneAccessCounts& lane_accesses) {
  LaunchSummary s;
  s.threads = threads;
  s.global_loads = lane_accesses.global_loads;
  s.global_stores = lane_accesses.global_stores;
  s.shared_accesses = lane_accesses.shared_accesses;
  for (const auto& [pc, t] : totals) {
    if (t.shared) {
      s.shared_requests += t.requests;
      s.shared_conflict_ways += t.conflict_ways;
    } else {
      s.global_requests += t.requests;
      s.global_sectors += t.sectors;
      s.global_ideal_sectors += t.ideal_sectors;
    }
  }
  return s;
}

parlab_sim::LaunchCounts launch_counts(const LaunchSummary& s) {
  parlab_sim::LaunchCounts c;
  c.threads = s.threads;
  c.global_loads = s.global_loads;
  c.global_stores = s.global_stores;
  c.global_requests = s.global_requests;
  c.global_sectors = s.global_sectors;
  c.global_ideal_sectors = s.global_ideal_sectors;
  c.shared_accesses = s.shared_accesses;
  c.shared_requests = s.shared_requests;
  c.shared_conflict_ways = s.shared_conflict_ways;
  const DivergenceSummary& d = s.divergence;
  c.warps = d.warps;
  c.divergent_warps = d.divergent_warps;
  c.warp_blocks = d.warp_blocks;
  c.divergent_warp_blocks = d.divergent_warp_blocks;
  c.warp_block_runs = d.warp_block_runs;
  c.divergent_runs = d.divergent_runs;
  c.code_bytes = d.code_bytes;
  c.divergent_code_bytes = d.divergent_code_bytes;
  return c;
}

std::string summary_json_line(const char* kernel_name, const LaunchSummary& s) {
  return counts_json_line(kernel_name, launch_counts(s));
}

std::string reduced_kernel_name(std::string_view kernel_name) {
  std::string name;
  for (const char c : kernel_name.substr(0, 120)) {
    const bool plain = std::isalnum(static_cast<unsigned char>(c)) || std::strchr("_:<>, ()", c);
    name += plain ? c : '?';
  }
  return name;
}

std::string counts_json_line(std::string_view kernel_name, const parlab_sim::LaunchCounts& counts) {
  const std::string name = reduced_kernel_name(kernel_name);
  // Every field of the shared record, by its shared name (parlab_sim/launch_counts.hpp).
  std::string line = "{\"";
  line += parlab_sim::kLaunchKernelKey;
  line += "\": \"" + name + "\"";
  for (const parlab_sim::CountField& field : parlab_sim::kLaunchCountFields) {
    line += ", \"";
    line += field.name;
    line += "\": " + std::to_string(counts.*field.member);
  }
  return line + "}\n";
}

namespace {

// What the run's lines have not said yet: the lines written, the launches past the limit
// summed. Written by the host threads that end launches, under the mutex.
struct CountersLines {
  std::mutex mutex;
  unsigned written = 0;
  parlab_sim::LaunchCounts past_limit;
};
CountersLines& counters_lines() {
  static CountersLines lines;  // never destroyed before the exit handler below reads it
  return lines;
}

void send_counts_line(std::string_view kernel_name, const parlab_sim::LaunchCounts& counts) {
  std::string line = counts_json_line(kernel_name, counts);
  line.pop_back();  // the channel ends each record itself
  parlab_sim::sealed::append(parlab_sim::sealed::Channel::counters, line);
}

void add_counts(parlab_sim::LaunchCounts& into, const parlab_sim::LaunchCounts& counts) {
  for (const parlab_sim::CountField& field : parlab_sim::kLaunchCountFields) into.*field.member += counts.*field.member;
}

// At exit, before the channel's closing record (registered after it: exit handlers run
// last-in first): the launches past the limit and the host accesses since the last line.
void write_counters_tail() {
  CountersLines& lines = counters_lines();
  std::lock_guard lock(lines.mutex);
  for (std::string& record : run_record_lines()) {
    parlab_sim::sealed::append(parlab_sim::sealed::Channel::counters, record);
  }
  parlab_sim::LaunchCounts tail = lines.past_limit;
  tail.host_accesses += take_host_accesses();
  send_counts_line(parlab_sim::kLaunchTailName, tail);
}

void write_summary(const char* kernel_name, const LaunchSummary& summary) {
  const std::string_view path = runtime_settings().counters_path;
  if (path.empty() || summary.threads == 0) return;
  static const bool tail_registered = std::atexit(write_counters_tail) == 0;
  (void)tail_registered;
  CountersLines& lines = counters_lines();
  std::lock_guard lock(lines.mutex);
  parlab_sim::LaunchCounts counts = launch_counts(summary);
  counts.host_accesses = take_host_accesses();
  if (lines.written >= kMaxSummaryLines) {
    add_counts(lines.past_limit, counts);
    return;
  }
  ++lines.written;
  send_counts_line(kernel_name, counts);
}

// PARLAB_SIM_COUNTERS=2: every instruction's figures on stderr, for a person running the
// program by hand (the grader reads none of it: its hints come from the instruction
// records, counters/run_records).
void print_instructions(const char* kernel_name, const std::map<const void*, InstructionTotals>& totals) {
  for (const auto& [pc, t] : totals) {
    if (t.requests == 0) continue;
    const std::string where = source_line_of(pc);
    const char* what = t.write ? "stores" : "loads";
    const auto requests = static_cast<unsigned long long>(t.requests);
    const double per_request = static_cast<double>(t.shared ? t.conflict_ways : t.sectors) / t.requests;
    if (t.shared) {
      std::fprintf(stderr, "parlab-sim: counters: kernel %s, shared %s at %s: %.1f-way bank conflicts "
                   "per request (1 is ideal), %llu requests sampled\n", kernel_name, what, where.c_str(),
                   per_request, requests);
    } else {
      std::fprintf(stderr, "parlab-sim: counters: kernel %s, global %s at %s: %.1f sectors per request "
                   "(%.1f is ideal), %llu requests sampled\n", kernel_name, what, where.c_str(), per_request,
                   static_cast<double>(t.ideal_sectors) / t.requests, requests);
    }
  }
}

}  // namespace

void report_launch_counters(const char* kernel_name, LaunchCounters& launch) {
  std::map<const void*, InstructionTotals> totals;
  std::uint64_t threads = 0;
  LaneAccessCounts lane_accesses;
  {
    std::lock_guard lock(launch.access.mutex);
    totals.swap(launch.access.instructions);
    std::swap(threads, launch.access.threads);
    std::swap(lane_accesses, launch.access.lane_accesses);
  }
  LaunchSummary summary = summarize(totals, threads, lane_accesses);
  summary.divergence = report_launch_divergence(kernel_name, print_all(), launch.divergence);
  write_summary(kernel_name, summary);
  add_launch_instructions(kernel_name, totals);
  if (print_all()) print_instructions(kernel_name, totals);
}

}  // namespace parlab_sim::detail
