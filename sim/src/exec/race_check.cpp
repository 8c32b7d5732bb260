#include "exec/race_check.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "counters/host_accesses.hpp"
#include "exec/execution_state.hpp"
#include "fault/memory_fault.hpp"
#include "parlab_sim/source_names.hpp"
#include "race/atomic_order.hpp"
#include "race/grid_shadow.hpp"
#include "report/source_lines.hpp"
#include "report/diagnostics.hpp"
#include "memory/guarded_mapping.hpp"
#include "memory/device_heap.hpp"
#include "memory/memory_registry.hpp"

namespace parlab_sim::detail {

namespace {

// A simulator-mapped allocation a kernel may reach: [begin, end) are its bytes, the
// rest of [accessible_begin, accessible_end) the accessible bytes around them (the slack
// after the 256-byte aligned bytes, the rest of the first page before them), which only
// these hooks can tell from the bytes (memory/guarded_mapping.hpp).
struct DeviceRange {
  std::uintptr_t accessible_begin;
  std::uintptr_t begin;
  std::uintptr_t end;
  std::uintptr_t accessible_end;
  bool device;  // device or managed: races and counters; pinned host: bounds only
  bool variables = false;  // the executable's writable data (its __device__ variables)
};
// Sorted by accessible_begin; written by the host thread between launches, read by workers.
std::vector<DeviceRange> g_device_ranges;

// device: a device allocation; device_variables: the executable's writable data, where
// its __device__ and __managed__ variables are (config/locked_state's ProgramDataRange).
// Both are global memory to the checks and the counters.
// device_heap: what a kernel's malloc gave (memory/device_heap.hpp).
enum class RegionKind { none, static_shared, dynamic_shared, device, device_variables, device_heap };

bool is_global(RegionKind kind) {
  return kind == RegionKind::device || kind == RegionKind::device_variables ||
         kind == RegionKind::device_heap;
}

struct Region {
  RegionKind kind = RegionKind::none;
  std::uintptr_t begin = 0;
  std::size_t bytes = 0;
  const char* name = nullptr;  // static shared variables
};

// The mapped allocation whose accessible pages hold `address`. An access of `bytes`
// there that leaves its bytes (into the slack, or before its start) is a fault, reported
// as the guard page's would be: a GPU may let it pass, the simulator fails it wherever it
// can see it.
const DeviceRange* allocation_near(std::uintptr_t address, std::size_t bytes, bool write,
                                   const void* pc) {
  auto it = std::upper_bound(
      g_device_ranges.begin(), g_device_ranges.end(), address,
      [](std::uintptr_t a, const DeviceRange& r) { return a < r.accessible_begin; });
  if (it == g_device_ranges.begin()) return nullptr;
  --it;
  if (address >= it->accessible_end) return nullptr;
  // An empty range access touches nothing (an end pointer is fine).
  if (bytes != 0 && (address < it->begin || address + bytes > it->end)) [[unlikely]] {
    // `pc` is the hook's return address: one byte back is the access's own line.
    report_kernel_memory_fault(write ? "invalid memory write" : "invalid memory read",
                               address < it->begin ? address : std::max(address, it->end), false,
                               pc != nullptr ? reinterpret_cast<std::uintptr_t>(pc) - 1 : 0);
  }
  return &*it;
}

Region classify(std::uintptr_t address, std::size_t bytes, bool write, const BlockRunner& runner,
                const void* pc) {
  for (const SharedVariable& variable : runner.shared_variables()) {
    const auto begin = reinterpret_cast<std::uintptr_t>(variable.address);
    if (address >= begin && address < begin + variable.bytes) {
      return {RegionKind::static_shared, begin, variable.bytes, variable.name};
    }
  }
  if (const std::byte* dynamic = t_dynamic_shared) {
    const auto begin = reinterpret_cast<std::uintptr_t>(dynamic);
    const std::size_t placed = runner.dynamic_shared().placed_bytes();
    if (address >= begin && address < begin + placed) {
      return {RegionKind::dynamic_shared, begin, placed, runner.dynamic_shared_name()};
    }
  }
  if (const DeviceRange* range = allocation_near(address, bytes, write, pc)) {
    if (range->device) {
      return {range->variables ? RegionKind::device_variables : RegionKind::device, range->begin,
              range->end - range->begin, nullptr};
    }
  }
  if (in_device_heap(address)) {
    const DeviceHeapExtent heap = device_heap_extent();
    return {RegionKind::device_heap, heap.begin, heap.bytes, nullptr};
  }
  return {};
}

std::string index_text(uint3 index) {
  return "(" + std::to_string(index.x) + "," + std::to_string(index.y) + "," +
         std::to_string(index.z) + ")";
}

uint3 thread_index(unsigned linear, dim3 block) {
  return uint3{linear % block.x, (linear / block.x) % block.y, linear / (block.x * block.y)};
}

const char* verb(bool write, bool atomic) {
  if (atomic) return "updates it atomically";
  return write ? "writes it" : "reads it";
}

std::string region_text(const Region& region, std::uintptr_t address) {
  // `address` is a byte both accesses touched, so inside the region (never before it).
  const std::string offset =
      "byte " + std::to_string(address >= region.begin ? address - region.begin : 0);
  switch (region.kind) {
    case RegionKind::static_shared:
      return "shared array `" + std::string(region.name) + "` (" + offset + ")";
    case RegionKind::dynamic_shared:
      return region.name != nullptr && *region.name != '\0'
                 ? "shared array `" + std::string(region.name) + "` (extern __shared__, " + offset + ")"
                 : "dynamic shared memory (extern __shared__, " + offset + ")";
    case RegionKind::device:
      return "device memory (a cudaMalloc block of " + std::to_string(region.bytes) + " bytes, " +
             offset + ")";
    case RegionKind::device_variables: return "a __device__ variable (global memory)";
    case RegionKind::device_heap: return "memory a kernel's malloc gave (global memory)";
    case RegionKind::none: break;
  }
  return "memory";
}

// A read and a write of one element on one line by two threads is either several threads
// updating that element (`x++`, `bin[k] += 1`: each thread also writes it) or a step
// reading what a neighbour writes in the same step (a tree level without its barrier:
// `s[t] += s[t + stride]`, where the reader writes another element). Which one shows only
// later: whether the reading thread writes the element too, at that line, before the next
// barrier. A read and a write of global memory before any barrier wait too: the reading
// thread writing another element of the same array is a stencil updating its grid in
// place, which no barrier mends (it orders one block, and the neighbours at a block's
// edge belong to others). Such a race waits here until its block ends.
struct PendingRace {
  std::uintptr_t word = 0;
  std::uintptr_t array_begin = 0, array_end = 0;  // the allocation or shared array
  unsigned reader = 0;           // the lane whose access was the read
  std::uint32_t epoch = 0;       // the barrier interval of the conflict
  bool same_line = true;         // else: global memory read and written on two lines
  bool in_place_candidate = false;  // global memory, no __syncthreads() passed yet
  bool reader_writes_it = false;  // the reading lane also writes the element
  bool reader_writes_array = false;  // ... or another element of the same array
  bool same_warp = false;
  std::string first, second;      // both lines
  std::string message;            // all but the advice
  std::string summary;
};
thread_local std::vector<PendingRace> t_pending_races;

// Each lane's last plain write to global memory in this block (and its barrier interval):
// a race found after the reading lane wrote its own element still learns of that write.
struct LaneWrite {
  std::uintptr_t address = 0;
  std::uint32_t epoch = 0;
};
thread_local std::vector<LaneWrite> t_lane_device_writes;

void emit_race(const std::string& first, const std::string& second, const std::string& summary,
               const std::string& message) {
  report_finding(kFindingDataRace, first + "|" + second, summary, message);
}

std::string in_place_advice() {
  return "The kernel reads global memory that other threads overwrite in the same launch (a "
         "stencil updating its grid in place: each point reads neighbours that other threads, "
         "and at a block's edge other blocks, are rewriting). A __syncthreads() orders only "
         "the threads of one block, never the blocks next to it: read the old values from one "
         "buffer and write the new ones to a second buffer (swap the two between steps).";
}

std::string pending_advice(const PendingRace& race) {
  if (race.same_line && race.reader_writes_it)
    return "Several threads read and write it on one line (like `x++` or `x += v`): make the "
           "update atomic (atomicAdd, ...) or give each thread its own element.";
  if (race.reader_writes_it)
    return "Several threads read it and then write it back (an update split over two lines): "
           "make the update atomic (atomicAdd, ...) or give each thread its own element.";
  if (race.in_place_candidate && race.reader_writes_array) return in_place_advice();
  if (!race.same_line)
    return std::string("Put a __syncthreads()") + (race.same_warp ? " (or __syncwarp())" : "") +
           " between the write and the read.";
  return std::string("One thread reads the element while another writes it on the same line "
                     "(a step that reads what a neighbour writes in that step, such as a tree "
                     "level `s[t] += s[t + stride]`): put a __syncthreads()") +
         (race.same_warp ? " (or __syncwarp())" : "") + " between the steps, so each step reads "
         "what the last one finished.";
}

// The texts of a race whose advice waits for its block's end.
struct RaceTexts {
  std::string first, second, message, summary;
};

// A read and a write whose cause the rest of the block tells (PendingRace): kept, with
// what the reading lane already wrote.
void defer_race(const RaceConflict& conflict, const Region& region, bool in_place_candidate,
                bool same_warp, RaceTexts texts) {
  PendingRace pending;
  pending.word = conflict.word;
  pending.array_begin = region.begin;
  pending.array_end = region.begin + region.bytes;
  pending.reader = conflict.later_is_write ? conflict.earlier.lane : conflict.later.lane;
  pending.epoch = conflict.later.epoch;
  pending.same_line = texts.first == texts.second;
  pending.in_place_candidate = in_place_candidate;
  pending.same_warp = same_warp;
  if (pending.reader < t_lane_device_writes.size()) {
    const LaneWrite& last = t_lane_device_writes[pending.reader];
    const bool now = last.epoch == pending.epoch;
    pending.reader_writes_it = now && last.address >= pending.word && last.address < pending.word + 4;
    pending.reader_writes_array = now && last.address >= pending.array_begin && last.address < pending.array_end;
  }
  pending.first = std::move(texts.first);
  pending.second = std::move(texts.second);
  pending.message = std::move(texts.message);
  pending.summary = std::move(texts.summary);
  t_pending_races.push_back(std::move(pending));
}

[[gnu::noinline, gnu::cold]] void report_race(const RaceConflict& conflict, const Region& region,
                                              const BlockRunner& runner) {
  // One report per pair of places: the rest of the threads repeat it.
  thread_local std::set<std::pair<const void*, const void*>> reported;
  const auto key = std::minmax(conflict.earlier.pc(), conflict.later.pc());
  if (!reported.insert(key).second) return;

  const std::string first = source_line_of(conflict.earlier.pc());
  const std::string second = source_line_of(conflict.later.pc());
  const dim3 block = runner.job()->request->config.block;
  const std::string what = region_text(region, conflict.address);
  const char* array_kind = is_global(region.kind) ? "global memory" : "shared memory";
  std::string barrier = runner.barriers_passed() == 0
                            ? "no __syncthreads() since the kernel started"
                            : "the last __syncthreads() passed was at " + runner.last_barrier_site();
  const bool same_warp = conflict.earlier.lane / 32 == conflict.later.lane / 32;
  std::string message =
      "data race on " + what + " in kernel " + runner.kernel_name() + ", block " +
      index_text(runner.block_index()) + ": thread " +
      index_text(thread_index(conflict.earlier.lane, block)) + " " +
      verb(conflict.earlier_is_write, conflict.earlier.atomic) + " at " + first + ", thread " +
      index_text(thread_index(conflict.later.lane, block)) + " " +
      verb(conflict.later_is_write, conflict.later.atomic) + " at " + second +
      ", with no barrier between them (" + barrier + "). On a GPU these threads run at the same " +
      "time, so the result depends on their timing. ";
  const std::string summary = std::string("data race on ") +
                              (region.name != nullptr && *region.name != '\0'
                                   ? "`" + std::string(region.name) + "`"
                                   : std::string(array_kind)) +
                              " between " + first + " and " + second;
  const bool both_write = conflict.earlier_is_write && conflict.later_is_write;
  const bool in_place_candidate = is_global(region.kind) && runner.barriers_passed() == 0;
  if (!both_write && (first == second || in_place_candidate)) {
    defer_race(conflict, region, in_place_candidate, same_warp, {first, second, message, summary});
    return;
  }
  std::string advice;
  if (both_write && first == second) {
    advice = "Several threads write it on one line: make the update atomic (atomicAdd, ...) or "
             "give each thread its own element.";
  } else if (both_write) {
    // Two statements writing one element: their order is the bug, which an atomic would
    // not fix.
    advice = std::string("Two different writes with nothing ordering them: put a "
                         "__syncthreads()") + (same_warp ? " (or __syncwarp())" : "") +
             " between them, or let one thread write the element.";
  } else {
    advice = std::string("Put a __syncthreads()") + (same_warp ? " (or __syncwarp())" : "") +
             " between the write and the read.";
  }
  emit_race(first, second, summary, message + advice);
}

// A plain write by `lane` in `epoch`: the reading lane of a pending race writing that
// element too is several threads updating it; writing another element of the array, an
// update in place.
void note_pending_write(std::uintptr_t where, std::size_t bytes, unsigned lane, std::uint32_t epoch) {
  const std::uintptr_t end = where + (bytes == 0 ? 1 : bytes);
  for (PendingRace& pending : t_pending_races) {
    if (pending.reader != lane || pending.epoch != epoch) continue;
    if (pending.word < end && where < pending.word + 4) pending.reader_writes_it = true;
    if (where < pending.array_end && pending.array_begin < end) pending.reader_writes_array = true;
  }
}

void remember_device_write(std::uintptr_t where, unsigned lane, std::uint32_t epoch) {
  if (lane >= t_lane_device_writes.size()) t_lane_device_writes.resize(lane + 1);
  t_lane_device_writes[lane] = {where, epoch};
}

std::uint64_t linear_block(uint3 index, dim3 grid) {
  return index.x + std::uint64_t{grid.x} * (index.y + std::uint64_t{grid.y} * index.z);
}

// A plain write to device memory, checked against the other blocks' writes of this
// launch (race/grid_shadow.hpp). Called before the block shadow records the write.
[[gnu::noinline, gnu::cold]] void report_grid_race(const GridConflict& conflict,
                                                   const Region& region,
                                                   const BlockRunner& runner) {
  static std::mutex mutex;
  static std::set<std::pair<const void*, const void*>> reported;
  {
    std::lock_guard lock(mutex);
    if (!reported.insert(std::minmax(conflict.earlier.pc, conflict.later.pc)).second) return;
  }
  const std::string first = source_line_of(conflict.earlier.pc);
  const std::string second = source_line_of(conflict.later.pc);
  const dim3 grid = runner.job()->request->config.grid;
  const dim3 block = runner.job()->request->config.block;
  const auto block_text = [&](std::uint64_t linear) {
    return index_text(uint3{static_cast<unsigned>(linear % grid.x),
                            static_cast<unsigned>((linear / grid.x) % grid.y),
                            static_cast<unsigned>(linear / (std::uint64_t{grid.x} * grid.y))});
  };
  const std::string message =
      "data race between blocks on " + region_text(region, conflict.address) + " in kernel " +
      runner.kernel_name() + ": block " + block_text(conflict.earlier.block) + " thread " +
      index_text(thread_index(conflict.earlier.lane, block)) + " writes it at " + first +
      ", block " + block_text(conflict.later.block) + " thread " +
      index_text(thread_index(conflict.later.lane, block)) + " writes it at " + second +
      ", and at least one of them read it first (a read-modify-write such as a running maximum "
      "or sum). Blocks run at the same time on a GPU and no __syncthreads() orders them, so "
      "one block's update can overwrite another's: the result depends on their timing. Use an "
      "atomic (atomicMax, atomicAdd, ...) for the shared result, or write one partial per block "
      "and combine them in a second kernel.";
  report_finding(kFindingDataRace, "grid|" + first + "|" + second,
                 "data race between blocks on global memory between " + first + " and " + second,
                 message);
}

void check_grid_write(std::uintptr_t where, std::size_t bytes, const Region& region,
                      BlockRunner& runner, unsigned lane, const void* pc) {
  GridWrite now;
  now.block = linear_block(runner.block_index(), runner.job()->request->config.grid);
  now.generation = runner.running_job().grid_generation;  // changes only while all blocks wait
  now.pc = pc;
  now.lane = lane;
  now.epoch = runner.block_order().epoch();
  now.read_first = runner.race_shadow().read_before_write(where, bytes);
  const GridConflict conflict = grid_shadow().write(where, bytes, now, runner.block_order());
  if (conflict.address != 0) report_grid_race(conflict, region, runner);
}

}  // namespace

BlockOrder* ordering_block(std::uint64_t& block) {
  BlockRunner* runner = t_block_runner;
  if (t_lane == nullptr || runner == nullptr || !g_locked.race_check_enabled) return nullptr;
  block = linear_block(runner->block_index(), runner->job()->request->config.grid);
  return &runner->block_order();
}

void race_check_begin_launch() {
  if (g_locked.race_check_enabled) {
    grid_shadow().clear();
    atomic_order().clear();
  }
  g_device_ranges.clear();
  MemoryRegistry::instance().for_each([](const MemoryRange& range) {
    const bool device = range.kind == MemoryKind::device || range.kind == MemoryKind::managed;
    if (device || (range.kind == MemoryKind::pinned_host && range.region_begin != 0)) {
      g_device_ranges.push_back({accessible_begin(range), range.begin, range.end,
                                 accessible_end(range), device});
    }
  });
  if (const ProgramDataRange& data = g_locked.program_data; data.begin < data.end) {
    g_device_ranges.push_back({data.begin, data.begin, data.end, data.end, true, true});
  }
  std::sort(g_device_ranges.begin(), g_device_ranges.end(),
            [](const DeviceRange& a, const DeviceRange& b) {
              return a.accessible_begin < b.accessible_begin;
            });
}

void race_check_access(const volatile void* address, std::size_t bytes, bool write, bool atomic,
                       const void* pc) {
  const Lane* lane = t_lane;
  BlockRunner* runner = t_block_runner;
  if (runner == nullptr) {  // host code: work the kernels' figures do not show
    if (g_locked.counters_enabled) count_host_access();
    return;
  }
  if (lane == nullptr) return;  // a worker between lanes
  const auto where = reinterpret_cast<std::uintptr_t>(const_cast<const void*>(address));
  const Region region = classify(where, bytes, write, *runner, pc);
  if (region.kind == RegionKind::none) return;  // the thread's own stack, host memory
  if (runner->counters().sampled() && !atomic) {
    runner->counters().record(pc, lane->linear, where, bytes == 0 ? 1 : bytes,
                              !is_global(region.kind), write);
  }
  if (!g_locked.race_check_enabled) return;
  if (write && !atomic && is_global(region.kind)) {
    check_grid_write(where, bytes, region, *runner, lane->linear, pc);
  }
  const RaceConflict conflict =
      runner->race_shadow().access(where, bytes, write, atomic, lane->linear, pc);
  if (conflict.word != 0) report_race(conflict, region, *runner);
  if (write && !atomic && is_global(region.kind))
    remember_device_write(where, lane->linear, runner->race_shadow().epoch());
  if (write && !t_pending_races.empty())
    note_pending_write(where, bytes, lane->linear, runner->race_shadow().epoch());
}

void race_check_finish_block() {
  for (const PendingRace& pending : t_pending_races) {
    emit_race(pending.first, pending.second, pending.summary, pending.message + pending_advice(pending));
  }
  t_pending_races.clear();
  t_lane_device_writes.clear();
}

}  // namespace parlab_sim::detail
