#pragma once
// Runs one thread block at a time on a worker OS thread: every CUDA thread of the
// block is a lane, run on a fiber (Boost.Context) until it finishes or has to wait
// (__syncthreads, a warp collective, a failed atomicCAS). No switch happens while a
// thread can keep going, and a fiber whose thread finished takes the next unstarted
// one, so a kernel without barriers runs its block on one fiber.
//
// When no lane can run and some have not finished, the block can never finish: the
// runner reports the deadlock instead of hanging (stall_report.cpp).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <source_location>
#include <string>
#include <vector>

#include "lane/lane.hpp"
#include "exec/grid_job.hpp"
#include "lane/stack_switch_annotations.hpp"
#include "exec/warp_state.hpp"
#include "counters/access_counters.hpp"
#include "counters/divergence.hpp"
#include "race/atomic_order.hpp"
#include "race/block_shadow.hpp"
#include "parlab_sim/shared_memory.hpp"
#include "parlab_sim/vector_types.hpp"

namespace parlab_sim::detail {

// What a __syncthreads_count/_and/_or returns from: the threads that passed a true
// predicate and the threads that took part (exited ones do not).
struct BarrierResult {
  int count = 0;
  int participants = 0;
};

class BlockRunner {
 public:
  BlockRunner();
  ~BlockRunner();
  BlockRunner(const BlockRunner&) = delete;
  BlockRunner& operator=(const BlockRunner&) = delete;

  // Runs block number `block_linear` of `job` on the calling thread, to completion or
  // until the job is aborted.
  void run_block(GridJob& job, std::uint64_t block_linear);

  // Called by the CUDA thread running on this OS thread (`self` is t_lane).
  BarrierResult barrier(Lane& self, std::source_location site, int predicate);
  std::uint64_t warp_collective(Lane& self, const WarpRequest& request);
  void yield(Lane& self);
  unsigned live_lanes_of_warp(const Lane& self) const;
  void add_static_shared(std::size_t bytes);
  // A static __shared__ variable of this block (poisoned already), for the race check.
  void add_shared_variable(const SharedVariable& variable) { shared_variables_.push_back(variable); }
  const std::vector<SharedVariable>& shared_variables() const { return shared_variables_; }

  // For this_grid().sync() (exec/device_calls.cpp): the launch running, and the number of
  // grid syncs this block has waited at.
  GridJob& running_job() { return *job_; }
  std::uint64_t& grid_syncs_waited() { return grid_syncs_waited_; }

  // For fault reports.
  const char* kernel_name() const;
  const GridJob* job() const { return job_; }
  const DynamicSharedBuffer& dynamic_shared() const { return dynamic_shared_; }
  const char* dynamic_shared_name() const { return t_dynamic_shared_name; }
  uint3 block_index() const { return block_idx_; }

  // For the race check (exec/race_check.cpp).
  BlockShadow& race_shadow() { return race_shadow_; }
  BlockOrder& block_order() { return block_order_; }
  BlockCounters& counters() { return counters_; }
  unsigned barriers_passed() const { return barriers_passed_; }
  std::string last_barrier_site() const;
  std::size_t static_shared_bytes() const { return static_shared_bytes_; }

 private:
  void start_block(GridJob& job, std::uint64_t block_linear);
  void finish_block();
  FiberSlot& idle_fiber();
  boost::context::fiber fiber_main(FiberSlot& slot, boost::context::fiber&& scheduler);
  void run_lane(Lane& lane);
  void on_lane_exit(Lane& lane);
  Lane* claim_unstarted();
  unsigned start_order(unsigned position) const;  // which lane starts `position`-th
  void bind(Lane& lane);  // makes `lane` the CUDA thread this OS thread runs
  void resume(Lane& lane);
  void suspend(Lane& self, LaneState state);
  void switch_to_scheduler(FiberSlot& slot);  // from the fiber running on `slot`
  void destroy_fiber(FiberSlot& slot);        // unwinds a suspended fiber
  void make_ready(Lane& lane);
  void wake_group(unsigned warp, unsigned group, const Lane* self);
  // Completes every waiting collective of the warp that can complete now, waking its
  // lanes except `self` (the running lane, if any).
  void complete_pending(unsigned warp, const Lane* self);
  // The lanes of a warp waiting at the block's __syncthreads() (for __syncwarp).
  unsigned lanes_at_block_barrier(unsigned warp) const;
  bool barrier_complete() const;
  void release_barrier(const Lane* self);
  void abandon_block();
  // Fault reports: kept out of line so the hot paths keep small stack frames.
  [[noreturn, gnu::noinline, gnu::cold]] void report_stall() const;
  // A finding, not a fault: the barrier completed without threads that had exited.
  [[gnu::noinline, gnu::cold]] void report_exited_before_barrier() const;
  [[gnu::noinline, gnu::cold]] void report_absent_lane_read(unsigned warp_index,
                                                            unsigned lanes) const;
  [[noreturn, gnu::noinline, gnu::cold]] void report_out_of_stacks() const;
  [[noreturn, gnu::noinline, gnu::cold]] void report_divergent_barrier(std::source_location site) const;
  [[noreturn, gnu::noinline, gnu::cold]] void report_warp_misuse(unsigned warp_index, const Lane* self,
                                                                 const WarpRequest& request,
                                                                 const std::string& mismatch) const;

  GridJob* job_ = nullptr;
  // The worker thread's own stack, learnt when a fiber first starts, and its ASan fake
  // frames while a fiber runs (stack_switch_annotations.hpp; unused in other builds).
  StackBounds scheduler_stack_;
  void* scheduler_fake_stack_ = nullptr;
  std::uint64_t grid_syncs_waited_ = 0;
  uint3 block_idx_{};
  std::vector<Lane> lanes_;
  unsigned lane_count_ = 0;
  unsigned next_unstarted_ = 0;
  ShuffledOrder lane_order_;  // the order the threads start in (seeded runs: shuffled)
  unsigned exited_ = 0;
  // Lanes ready to resume, FIFO; each lane is queued at most once, so lane_count_ slots.
  std::vector<Lane*> ready_;
  unsigned ready_head_ = 0;
  unsigned ready_size_ = 0;

  unsigned at_barrier_ = 0;
  int barrier_count_ = 0;
  BarrierResult barrier_result_;
  std::source_location barrier_site_;

  std::vector<WarpState> warps_;
  std::vector<std::unique_ptr<FiberSlot>> fibers_;
  std::vector<FiberSlot*> idle_;
  DynamicSharedBuffer dynamic_shared_;
  std::size_t static_shared_bytes_ = 0;
  std::vector<SharedVariable> shared_variables_;
  BlockShadow race_shadow_;
  BlockOrder block_order_;
  BlockCounters counters_;
  BlockDivergence divergence_;
  unsigned barriers_passed_ = 0;
  std::source_location last_barrier_;
  std::uint64_t block_serial_ = 0;
};

}  // namespace parlab_sim::detail
