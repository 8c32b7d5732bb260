#include "counters/run_records.hpp"

#include <algorithm>
#include <mutex>
#include <utility>

#include "config/locked_state.hpp"
#include "counters/code_block_length.hpp"

namespace parlab_sim::detail {

namespace {

// A program has a bounded number of memory instructions and code blocks (its code), so
// this bound is never reached by honest code; past it, new ones are not added (hints only).
constexpr std::size_t kMaxKept = std::size_t{1} << 16;

template <typename Counts>
struct Kept {
  std::string kernel;
  Counts counts;
};

// Written by the host threads that end launches, read at exit.
struct RunRecords {
  std::mutex mutex;
  std::map<std::uint64_t, Kept<parlab_sim::InstructionCounts>> instructions;
  std::map<std::uint64_t, Kept<parlab_sim::CodeBlockCounts>> code_blocks;
};
RunRecords& run_records() {
  static auto* records = new RunRecords;  // never destroyed: read at exit
  return *records;
}

// The entry of `offset`, made with `kernel` if new; null past the bound.
template <typename Counts>
Counts* kept_at(std::map<std::uint64_t, Kept<Counts>>& kept, std::uint64_t offset, std::string_view kernel) {
  auto it = kept.find(offset);
  if (it == kept.end()) {
    if (kept.size() >= kMaxKept) return nullptr;
    Kept<Counts> fresh{std::string(kernel), {}};
    fresh.counts.code_offset = offset;
    it = kept.emplace(offset, std::move(fresh)).first;
  }
  return &it->second.counts;
}

// The largest `limit` of `kept` by `weight`, the offset breaking ties (the same lines
// each run), as JSON lines.
template <typename Counts, typename Weight, typename Line>
void append_largest(std::vector<std::string>& lines, const std::map<std::uint64_t, Kept<Counts>>& kept,
                    std::size_t limit, Weight weight, Line line) {
  std::vector<const Kept<Counts>*> order;
  for (const auto& entry : kept) order.push_back(&entry.second);
  std::stable_sort(order.begin(), order.end(),
                   [&](const Kept<Counts>* a, const Kept<Counts>* b) { return weight(a->counts) > weight(b->counts); });
  if (order.size() > limit) order.resize(limit);
  for (const Kept<Counts>* k : order) lines.push_back(line(k->kernel, k->counts));
}

std::string key(std::string_view name) {
  std::string quoted = ", \"";
  quoted += name;
  return quoted + "\": ";
}

std::string text(std::string_view value) { return "\"" + std::string(value) + "\""; }

}  // namespace

std::uint64_t instruction_code_offset(const void* return_address) {
  const auto pc = reinterpret_cast<std::uintptr_t>(return_address);
  const ProgramCodeRange& code = g_locked.program_code;
  if (pc == 0 || pc <= code.begin || pc > code.end) return 0;
  // The call's last byte: the instruction addr2line names, minus the load bias (a
  // position-independent executable's load address), as the code places table keys it.
  return pc - 1 - code.load_bias;
}

void add_launch_instructions(std::string_view kernel_name,
                             const std::map<const void*, InstructionTotals>& totals) {
  RunRecords& run = run_records();
  std::lock_guard lock(run.mutex);
  for (const auto& [pc, t] : totals) {
    const std::uint64_t offset = instruction_code_offset(pc);
    if (offset == 0 || t.requests == 0) continue;
    parlab_sim::InstructionCounts* c = kept_at(run.instructions, offset, kernel_name);
    if (c == nullptr) continue;
    c->shared = t.shared;
    c->store = t.write;
    c->requests += t.requests;
    c->sectors += t.sectors;
    c->ideal_sectors += t.ideal_sectors;
    c->conflict_ways += t.conflict_ways;
  }
}

void add_launch_code_blocks(std::string_view kernel_name,
                            const std::unordered_map<const void*, CodeBlockTotals>& per_block,
                            const std::unordered_map<const void*, bool>& counted,
                            const std::unordered_map<const void*, std::uint32_t>& length_of) {
  RunRecords& run = run_records();
  std::lock_guard lock(run.mutex);
  for (const auto& [pc, t] : per_block) {
    const auto student = counted.find(pc);
    const std::uint64_t offset = instruction_code_offset(pc);
    if (t.divergent_runs == 0 || student == counted.end() || !student->second || offset == 0) continue;
    parlab_sim::CodeBlockCounts* c = kept_at(run.code_blocks, offset, kernel_name);
    if (c == nullptr) continue;
    const auto length = length_of.find(pc);
    c->bytes = length == length_of.end() ? kUnknownCodeBlockBytes : length->second;
    c->warp_runs += t.warp_runs;
    c->divergent_runs += t.divergent_runs;
    c->divergent_warps += t.divergent;
  }
}

std::string instruction_json_line(std::string_view kernel_name, const parlab_sim::InstructionCounts& c) {
  using namespace parlab_sim;
  std::string line = "{" + key(kInstructionOffsetKey).substr(2) + std::to_string(c.code_offset);
  line += key(kInstructionKernelKey) + text(reduced_kernel_name(kernel_name));
  line += key(kInstructionMemoryKey) + text(c.shared ? kSharedMemory : kGlobalMemory);
  line += key(kInstructionAccessKey) + text(c.store ? kStoreAccess : kLoadAccess);
  line += key(kInstructionRequestsKey) + std::to_string(c.requests);
  line += key(kInstructionSectorsKey) + std::to_string(c.sectors);
  line += key(kInstructionIdealSectorsKey) + std::to_string(c.ideal_sectors);
  line += key(kInstructionConflictWaysKey) + std::to_string(c.conflict_ways);
  return line + "}";
}

std::string code_block_json_line(std::string_view kernel_name, const parlab_sim::CodeBlockCounts& c) {
  using namespace parlab_sim;
  std::string line = "{" + key(kCodeBlockOffsetKey).substr(2) + std::to_string(c.code_offset);
  line += key(kCodeBlockKernelKey) + text(reduced_kernel_name(kernel_name));
  line += key(kCodeBlockBytesKey) + std::to_string(c.bytes);
  line += key(kCodeBlockWarpRunsKey) + std::to_string(c.warp_runs);
  line += key(kCodeBlockDivergentRunsKey) + std::to_string(c.divergent_runs);
  line += key(kCodeBlockDivergentWarpsKey) + std::to_string(c.divergent_warps);
  return line + "}";
}

std::vector<std::string> run_record_lines() {
  RunRecords& run = run_records();
  std::lock_guard lock(run.mutex);
  std::vector<std::string> lines;
  append_largest(lines, run.instructions, parlab_sim::kMaxInstructionRecords,
                 [](const parlab_sim::InstructionCounts& c) { return c.requests; }, instruction_json_line);
  append_largest(lines, run.code_blocks, parlab_sim::kMaxCodeBlockRecords,
                 [](const parlab_sim::CodeBlockCounts& c) { return c.bytes * c.divergent_runs; },
                 code_block_json_line);
  return lines;
}

}  // namespace parlab_sim::detail
