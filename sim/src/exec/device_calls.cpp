// The device-side functions that need the block runner: barriers, warp collectives,
// yields, fences, clocks, __trap, static shared memory accounting. Called outside a
// kernel they stop the program with a report, since CUDA rejects them at compile time.
#include <atomic>
#include <chrono>
#include <cstring>

#include "exec/execution_state.hpp"
#include "lane/shared_poison.hpp"
#include "exec/worker_pool.hpp"
#include "fault/fatal_report.hpp"
#include "parlab_sim/exit_codes.hpp"
#include "parlab_sim/runtime.hpp"
#include "parlab_sim/source_names.hpp"

namespace parlab_sim::detail {
namespace {

Lane& current_lane(const char* function) {
  Lane* lane = t_lane;
  if (lane == nullptr) {
    ReportText text;
    text.add("parlab-sim: ").add(function).add(" called outside a kernel:\n  it is a device "
                                               "function; call it only from __global__ code.");
    finish_report(text, kExitKernelFault);
  }
  return *lane;
}

BarrierResult block_barrier(const char* function, std::source_location site, int predicate) {
  Lane& lane = current_lane(function);
  return t_block_runner->barrier(lane, site, predicate);
}

std::uint64_t collective(const char* function, const WarpRequest& request) {
  Lane& lane = current_lane(function);
  return t_block_runner->warp_collective(lane, request);
}

}  // namespace

std::uint64_t warp_collective(const WarpRequest& request) {
  return collective(warp_op_name(request.op), request);
}

namespace {

// A grid sync needs every block of the grid running at once. The workers run one block
// each, so a grid of at most as many blocks as workers (cudaDevAttrMultiProcessorCount
// in sim mode) is resident; a larger one would wait forever and is refused instead.
[[noreturn, gnu::cold]] void report_grid_too_large(std::source_location site, std::uint64_t blocks,
                                                  unsigned workers) {
  ReportText text;
  begin_report(text, "grid-wide sync over more blocks than can run at once").add(":\n  ");
  text.add("cooperative_groups::this_grid().sync() at ").add(source_display_name(site.file_name()));
  text.add(':').add_decimal(site.line()).add(" needs all ").add_decimal(blocks);
  text.add(" blocks of the grid running at once;\n  the simulator runs ").add_decimal(workers);
  text.add(" at a time (one per multiprocessor it reports: cudaDevAttrMultiProcessorCount).\n  "
           "Launch at most that many blocks (a grid-stride loop covers the rest), as a GPU\n  "
           "refuses a cooperative launch larger than what fits on it at once.");
  finish_report(text, kExitKernelFault);
}

[[noreturn, gnu::cold]] void report_block_left_grid_sync(std::source_location site) {
  ReportText text;
  begin_report(text, "a block finished while others wait at a grid-wide sync").add(":\n  ");
  text.add("cooperative_groups::this_grid().sync() at ").add(source_display_name(site.file_name()));
  text.add(':').add_decimal(site.line());
  text.add(" waits for every block of the grid, but a block ended\n  without reaching it "
           "(all its threads returned). On a GPU the grid would wait forever:\n  every block "
           "must call this_grid().sync() the same number of times.");
  finish_report(text, kExitKernelFault);
}

// One thread of each block (the first to run after the block's barrier) waits here for
// the other blocks; its worker waits with it, while the rest of its block is held at
// the second barrier.
void wait_for_every_block(GridJob& job, std::source_location site) {
  std::unique_lock lock(job.grid_mutex);
  const std::uint64_t generation = job.grid_generation;
  if (++job.grid_arrived == job.block_count) {
    job.grid_arrived = 0;
    ++job.grid_generation;
    lock.unlock();
    job.grid_wake.notify_all();
    return;
  }
  job.grid_wake.wait(lock, [&] {
    return job.grid_generation != generation || job.blocks_finished > 0 || job.is_aborted();
  });
  if (job.grid_generation != generation) return;
  lock.unlock();
  if (job.is_aborted()) throw LaunchAborted{};
  report_block_left_grid_sync(site);
}

}  // namespace

void grid_sync(std::source_location site) {
  Lane& lane = current_lane("cooperative_groups::this_grid().sync()");
  BlockRunner& runner = *t_block_runner;
  GridJob& job = runner.running_job();
  if (job.block_count > 1) {
    const unsigned workers = WorkerPool::instance().worker_count();
    if (job.block_count > workers) report_grid_too_large(site, job.block_count, workers);
  }
  const std::uint64_t waited_before = runner.grid_syncs_waited();
  runner.barrier(lane, site, 0);  // the whole block is here
  if (job.block_count > 1 && runner.grid_syncs_waited() == waited_before) {
    ++runner.grid_syncs_waited();
    wait_for_every_block(job, site);
  }
  runner.barrier(lane, site, 0);  // and leaves only once every block has arrived
}

void yield_to_other_threads() {
  if (Lane* lane = t_lane) t_block_runner->yield(*lane);
}

void count_static_shared_of_new_block(std::size_t bytes, std::uint64_t& counted_in_block) {
  counted_in_block = t_block_serial;
  if (t_lane != nullptr) t_block_runner->add_static_shared(bytes);
}

void enter_static_shared_of_new_block(std::initializer_list<SharedVariable> variables,
                                      std::uint64_t& counted_in_block) {
  counted_in_block = t_block_serial;
  if (t_lane == nullptr) return;  // host code touching a __shared__ variable: no block
  std::size_t bytes = 0;
  for (const SharedVariable& variable : variables) bytes += variable.bytes;
  t_block_runner->add_static_shared(bytes);
  for (const SharedVariable& variable : variables) {
    fill_shared_poison(variable.address, variable.bytes);
    t_block_runner->add_shared_variable(variable);
  }
}

}  // namespace parlab_sim::detail

using parlab_sim::detail::WarpOp;
using parlab_sim::detail::WarpRequest;

void __syncthreads(std::source_location site) {
  parlab_sim::detail::block_barrier("__syncthreads", site, 0);
}
int __syncthreads_count(int predicate, std::source_location site) {
  return parlab_sim::detail::block_barrier("__syncthreads_count", site, predicate).count;
}
int __syncthreads_and(int predicate, std::source_location site) {
  const auto result = parlab_sim::detail::block_barrier("__syncthreads_and", site, predicate);
  return result.count == result.participants ? 1 : 0;
}
int __syncthreads_or(int predicate, std::source_location site) {
  return parlab_sim::detail::block_barrier("__syncthreads_or", site, predicate).count != 0 ? 1 : 0;
}

void __syncwarp(unsigned int mask) {
  parlab_sim::detail::warp_collective({WarpOp::sync, mask, 0, 0, 32, false});
}

unsigned int __activemask() {
  using namespace parlab_sim::detail;
  Lane& lane = current_lane("__activemask");
  return t_block_runner->live_lanes_of_warp(lane);
}

unsigned int __ballot_sync(unsigned int mask, int predicate) {
  return static_cast<unsigned int>(parlab_sim::detail::warp_collective(
      {WarpOp::ballot, mask, predicate != 0 ? 1u : 0u, 0, 32, false}));
}
int __any_sync(unsigned int mask, int predicate) {
  return static_cast<int>(parlab_sim::detail::warp_collective(
      {WarpOp::any, mask, predicate != 0 ? 1u : 0u, 0, 32, false}));
}
int __all_sync(unsigned int mask, int predicate) {
  return static_cast<int>(parlab_sim::detail::warp_collective(
      {WarpOp::all, mask, predicate != 0 ? 1u : 0u, 0, 32, false}));
}

namespace {
std::uint64_t reduce(WarpOp op, unsigned int mask, std::uint32_t value, bool is_signed) {
  return parlab_sim::detail::warp_collective({op, mask, value, 0, 32, is_signed});
}
}  // namespace

unsigned int __reduce_add_sync(unsigned int mask, unsigned int value) {
  return static_cast<unsigned int>(reduce(WarpOp::reduce_add, mask, value, false));
}
int __reduce_add_sync(unsigned int mask, int value) {
  return static_cast<int>(reduce(WarpOp::reduce_add, mask, static_cast<std::uint32_t>(value), true));
}
unsigned int __reduce_min_sync(unsigned int mask, unsigned int value) {
  return static_cast<unsigned int>(reduce(WarpOp::reduce_min, mask, value, false));
}
int __reduce_min_sync(unsigned int mask, int value) {
  return static_cast<int>(reduce(WarpOp::reduce_min, mask, static_cast<std::uint32_t>(value), true));
}
unsigned int __reduce_max_sync(unsigned int mask, unsigned int value) {
  return static_cast<unsigned int>(reduce(WarpOp::reduce_max, mask, value, false));
}
int __reduce_max_sync(unsigned int mask, int value) {
  return static_cast<int>(reduce(WarpOp::reduce_max, mask, static_cast<std::uint32_t>(value), true));
}
unsigned int __reduce_and_sync(unsigned int mask, unsigned int value) {
  return static_cast<unsigned int>(reduce(WarpOp::reduce_and, mask, value, false));
}
unsigned int __reduce_or_sync(unsigned int mask, unsigned int value) {
  return static_cast<unsigned int>(reduce(WarpOp::reduce_or, mask, value, false));
}
unsigned int __reduce_xor_sync(unsigned int mask, unsigned int value) {
  return static_cast<unsigned int>(reduce(WarpOp::reduce_xor, mask, value, false));
}

// A device-wide fence makes the block's next atomic a release (race/atomic_order.hpp).
void __threadfence() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  using parlab_sim::detail::g_locked;
  if (parlab_sim::detail::BlockRunner* runner = parlab_sim::detail::t_block_runner;
      runner != nullptr && g_locked.race_check_enabled) {
    runner->block_order().on_fence();
  }
}
void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }
void __threadfence_system() { __threadfence(); }

long long int clock64() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void __nanosleep(unsigned int) { parlab_sim::detail::yield_to_other_threads(); }

void __trap() {
  parlab_sim::detail::fatal(parlab_sim::kExitKernelFault, "__trap()",
                            "the kernel called __trap(); a GPU aborts the launch with "
                            "cudaErrorLaunchFailure");
}

void __brkpt() {
  parlab_sim::detail::fatal(parlab_sim::kExitKernelFault, "__brkpt()",
                            "the kernel hit a breakpoint instruction");
}
