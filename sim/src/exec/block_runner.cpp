#include "exec/block_runner.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <exception>
#include <new>

#include "exec/execution_state.hpp"
#include "fault/fatal_report.hpp"
#include "parlab_sim/builtins.hpp"
#include "parlab_sim/exit_codes.hpp"
#include "parlab_sim/shared_memory.hpp"
#include "parlab_sim/source_names.hpp"
#include "exec/race_check.hpp"
#include "report/diagnostics.hpp"

namespace parlab_sim::detail {
namespace {

// Block serials are unique in the process, so a __shared__ declaration's "counted in
// block N" marker is never mistaken for another block's.
std::atomic<std::uint64_t> g_last_block_serial{0};

uint3 unflatten(std::uint64_t linear, dim3 dims) {
  uint3 index;
  index.x = static_cast<unsigned>(linear % dims.x);
  linear /= dims.x;
  index.y = static_cast<unsigned>(linear % dims.y);
  index.z = static_cast<unsigned>(linear / dims.y);
  return index;
}

bool same_site(const std::source_location& a, const std::source_location& b) {
  return a.line() == b.line() && a.column() == b.column() &&
         (a.file_name() == b.file_name() || std::strcmp(a.file_name(), b.file_name()) == 0);
}

[[noreturn, gnu::noinline, gnu::cold]] void report_exception(const char* what) {
  ReportText text;
  begin_report(text, "uncaught C++ exception").add(":\n  ").add(what);
  text.add("\n  (CUDA kernels cannot throw; the exception left the kernel function)");
  finish_report(text, kExitKernelFault);
}

std::string hex_text(unsigned value) {
  static const char* digits = "0123456789abcdef";
  std::string text = "0x";
  for (int shift = 28; shift >= 0; shift -= 4) text += digits[(value >> shift) & 0xfu];
  return text;
}

void add_site(ReportText& text, const std::source_location& site) {
  text.add(source_display_name(site.file_name())).add(':').add_decimal(site.line());
}

}  // namespace

BlockRunner::BlockRunner() = default;
BlockRunner::~BlockRunner() = default;

const char* BlockRunner::kernel_name() const {
  return job_ != nullptr ? job_->request->kernel_name : "(no kernel)";
}

void BlockRunner::start_block(GridJob& job, std::uint64_t block_linear) {
  const LaunchConfig& config = job.request->config;
  job_ = &job;
  block_idx_ = unflatten(block_linear, config.grid);
  lane_count_ = job.threads_per_block;
  lanes_.resize(lane_count_);
  for (unsigned i = 0; i < lane_count_; ++i) {
    Lane& lane = lanes_[i];
    lane.thread_idx = unflatten(i, config.block);
    lane.linear = i;
    lane.state = LaneState::not_started;
    lane.fiber = nullptr;
  }
  next_unstarted_ = 0;
  lane_order_ = job.seeded ? ShuffledOrder(mix_seed(job.seed + 1 + block_linear), lane_count_)
                           : ShuffledOrder();
  exited_ = 0;
  ready_.assign(lane_count_, nullptr);
  ready_head_ = 0;
  ready_size_ = 0;
  at_barrier_ = 0;
  const unsigned warp_count = (lane_count_ + kWarpSize - 1) / kWarpSize;
  warps_.resize(warp_count);
  for (unsigned w = 0; w < warp_count; ++w) {
    const unsigned present = std::min(kWarpSize, lane_count_ - w * kWarpSize);
    warps_[w].reset(present == kWarpSize ? ~0u : (1u << present) - 1u);
  }
  static_shared_bytes_ = 0;
  shared_variables_.clear();
  barriers_passed_ = 0;
  if (g_locked.race_check_enabled) {
    race_shadow_.reset(warp_count);
    block_order_.reset();
  }
  // Access counters count every block (the same figures every grading, nothing a kernel
  // can do only where counted), or only the sampled two in a run that asked for that
  // (its figures are hints, never scored); divergence samples two (the first two, or
  // two drawn from the seed).
  if (g_locked.counters_enabled) {
    const int sample = job.sample_slot(block_linear);
    counters_.reset(!g_locked.settings.count_sampled_blocks || sample >= 0, lane_count_);
    divergence_.reset(sample >= 0, lane_count_, static_cast<unsigned>(sample >= 0 ? sample : 0));
    t_divergence = divergence_.sampled() ? &divergence_ : nullptr;
  }
  t_dynamic_shared_name = nullptr;
  block_serial_ = g_last_block_serial.fetch_add(1, std::memory_order_relaxed) + 1;

  t_block_runner = this;
  t_running_block = {kernel_name(), &dynamic_shared_};
  t_block_serial = block_serial_;
  t_dynamic_shared = dynamic_shared_.place(job.dynamic_shared_bytes);
  blockIdx = block_idx_;
  blockDim = config.block;
  gridDim = config.grid;
}

void BlockRunner::finish_block() {
  if (g_locked.race_check_enabled) race_check_finish_block();
  LaunchCounters* launch_counters = job_ != nullptr ? job_->counters : nullptr;
  if (launch_counters != nullptr && counters_.sampled()) {
    fold_block_counters(counters_, launch_counters->access);
    counters_.reset(false, 0);
  }
  if (launch_counters != nullptr && divergence_.sampled()) {
    fold_block_divergence(divergence_, launch_counters->divergence);
    divergence_.reset(false, 0);
  }
  t_divergence = nullptr;
  t_block_serial = 0;
  t_dynamic_shared = nullptr;
  t_lane = nullptr;
}

void BlockRunner::run_block(GridJob& job, std::uint64_t block_linear) {
  start_block(job, block_linear);
  for (;;) {
    if (job.is_aborted()) {
      abandon_block();
      break;
    }
    if (ready_size_ > 0) {
      Lane* lane = ready_[ready_head_];
      if (++ready_head_ == lane_count_) ready_head_ = 0;
      --ready_size_;
      resume(*lane);
      continue;
    }
    if (next_unstarted_ < lane_count_) {
      Lane& lane = lanes_[start_order(next_unstarted_++)];
      FiberSlot& slot = idle_fiber();
      slot.lane = &lane;
      lane.fiber = &slot;
      resume(lane);
      continue;
    }
    if (exited_ == lane_count_) break;
    report_stall();
  }
  finish_block();
  job.block_finished();
}

FiberSlot& BlockRunner::idle_fiber() {
  if (!idle_.empty()) {
    FiberSlot* slot = idle_.back();
    idle_.pop_back();
    return *slot;
  }
  auto owned = std::make_unique<FiberSlot>();
  FiberSlot& slot = *owned;
  try {
    slot.context = boost::context::fiber(
        std::allocator_arg, RecordingStackAllocator(fiber_stack_bytes(), &slot.stack),
        [this, &slot](boost::context::fiber&& scheduler) {
          return fiber_main(slot, std::move(scheduler));
        });
  } catch (const std::bad_alloc&) {
    report_out_of_stacks();
  }
  fibers_.push_back(std::move(owned));
  return slot;
}

boost::context::fiber BlockRunner::fiber_main(FiberSlot& slot,
                                              boost::context::fiber&& scheduler) {
  after_stack_switch(nullptr, &scheduler_stack_);  // a new fiber, started by resume()
  slot.scheduler = std::move(scheduler);
  try {
    for (;;) {
      run_lane(*slot.lane);
      if (Lane* next = claim_unstarted()) {
        slot.lane = next;
        next->fiber = &slot;
        bind(*next);
        continue;
      }
      // Park until the scheduler hands this fiber another lane (it binds it first).
      slot.lane = nullptr;
      idle_.push_back(&slot);
      switch_to_scheduler(slot);
    }
  } catch (const boost::context::detail::forced_unwind&) {
    // Destroyed (destroy_fiber): Boost ends the unwinding by switching back to the
    // worker's stack for good.
    before_stack_switch(nullptr, scheduler_stack_);
    throw;
  }
}

unsigned BlockRunner::start_order(unsigned position) const {
  return static_cast<unsigned>(lane_order_.at(position));
}

Lane* BlockRunner::claim_unstarted() {
  if (ready_size_ != 0 || next_unstarted_ >= lane_count_ || job_->is_aborted()) return nullptr;
  return &lanes_[start_order(next_unstarted_++)];
}

void BlockRunner::bind(Lane& lane) {
  threadIdx = lane.thread_idx;
  t_lane = &lane;
  lane.state = LaneState::running;
}

void BlockRunner::resume(Lane& lane) {
  FiberSlot& slot = *lane.fiber;
  bind(lane);
  before_stack_switch(&scheduler_fake_stack_, bounds_of(slot.stack));
  slot.context = std::move(slot.context).resume();
  after_stack_switch(scheduler_fake_stack_, nullptr);
  t_lane = nullptr;
}

void BlockRunner::suspend(Lane& self, LaneState state) {
  self.state = state;
  switch_to_scheduler(*self.fiber);
}

void BlockRunner::switch_to_scheduler(FiberSlot& slot) {
  before_stack_switch(&slot.fake_stack, scheduler_stack_);
  try {
    slot.scheduler = std::move(slot.scheduler).resume();
  } catch (const boost::context::detail::forced_unwind&) {
    after_stack_switch(slot.fake_stack, nullptr);  // back only to be unwound: destroy_fiber()
    throw;
  }
  after_stack_switch(slot.fake_stack, nullptr);
}

void BlockRunner::destroy_fiber(FiberSlot& slot) {
  // Destroying a suspended fiber switches to it to unwind its stack (run_lane), then back.
  before_stack_switch(&scheduler_fake_stack_, bounds_of(slot.stack));
  slot.context = boost::context::fiber{};
  after_stack_switch(scheduler_fake_stack_, nullptr);
}

void BlockRunner::run_lane(Lane& lane) {
  try {
    job_->request->run_thread(job_->request->state);
  } catch (const boost::context::detail::forced_unwind&) {
    throw;  // the fiber is being destroyed (aborted launch); let Boost unwind it
  } catch (const LaunchAborted&) {
    // this launch was aborted; the thread just stops
  } catch (const std::exception& error) {
    report_exception(error.what());
  } catch (...) {
    report_exception("an exception that is not a std::exception");
  }
  on_lane_exit(lane);
}

void BlockRunner::on_lane_exit(Lane& lane) {
  lane.state = LaneState::exited;
  ++exited_;
  const unsigned warp = lane.linear / kWarpSize;
  warps_[warp].mark_exited(lane.linear % kWarpSize);
  complete_pending(warp, nullptr);
  if (barrier_complete()) release_barrier(nullptr);
}

void BlockRunner::make_ready(Lane& lane) {
  lane.state = LaneState::ready;
  unsigned slot = ready_head_ + ready_size_;
  if (slot >= lane_count_) slot -= lane_count_;
  ready_[slot] = &lane;
  ++ready_size_;
}

void BlockRunner::report_out_of_stacks() const {
  ReportText text;
  text.add("parlab-sim: out of memory for the stacks of the CUDA threads (kernel ");
  text.add(kernel_name()).add(", ").add_decimal(fibers_.size()).add(" stacks of ");
  text.add_decimal(fiber_stack_bytes() / 1024).add(" KiB on this worker):\n  fewer threads per "
                                                  "block, PARLAB_SIM_STACK_KIB or PARLAB_SIM_WORKERS "
                                                  "lower the need.");
  finish_report(text, kExitOutOfMemory);
}

void BlockRunner::report_divergent_barrier(std::source_location site) const {
  const Lane* other = nullptr;
  for (const Lane& lane : lanes_) {
    if (lane.state == LaneState::at_barrier) {
      other = &lane;
      break;
    }
  }
  ReportText text;
  begin_report(text, "divergent __syncthreads()").add(":\n  this thread waits at ");
  add_site(text, site);
  text.add(" while thread ").add_index(other != nullptr ? other->thread_idx : uint3{});
  text.add(" waits at ");
  add_site(text, barrier_site_);
  text.add(".\n  All threads of a block must reach the same __syncthreads(); a barrier in a "
           "branch that\n  not every thread takes is undefined behaviour on a GPU (it hangs "
           "or corrupts data).");
  finish_report(text, kExitUndefinedBehaviour);
}

void BlockRunner::report_warp_misuse(unsigned warp_index, const Lane* self,
                                     const WarpRequest& request, const std::string& mismatch) const {
  ReportText text;
  if (mismatch.empty()) {
    begin_report(text, warp_op_name(request.op)).add(" with a mask that leaves out the calling lane");
    text.add(":\n  mask ").add_hex(request.mask).add(", lane ").add_decimal(self->linear % kWarpSize);
    text.add(". The calling lane must be named in the mask (undefined behaviour on a GPU).");
  } else {
    begin_report(text, "mismatched warp collective");
    if (t_lane == nullptr) {  // found when a lane exited: begin_report named no thread
      text.add(" in kernel ").add(kernel_name()).add(", block ").add_index(block_idx_);
    }
    text.add(":\n  warp ").add_decimal(warp_index).add(": ").add(mismatch.c_str());
    text.add(" (undefined behaviour on a GPU).");
  }
  finish_report(text, kExitUndefinedBehaviour);
}

void BlockRunner::report_exited_before_barrier() const {
  const Lane* exited = nullptr;
  for (const Lane& lane : lanes_) {
    if (lane.state == LaneState::exited) {
      exited = &lane;
      break;
    }
  }
  if (exited == nullptr) return;
  const std::string site =
      std::string(source_display_name(barrier_site_.file_name())) + ":" +
      std::to_string(barrier_site_.line());
  const uint3 t = exited->thread_idx;
  std::string message =
      "early exit before a barrier: in kernel " + std::string(kernel_name()) + ", " +
      std::to_string(lane_count_ - at_barrier_) + " of the " + std::to_string(lane_count_) +
      " threads of block (" + std::to_string(block_idx_.x) + "," + std::to_string(block_idx_.y) +
      "," + std::to_string(block_idx_.z) + ") (thread (" + std::to_string(t.x) + "," +
      std::to_string(t.y) + "," + std::to_string(t.z) + ") for one) had returned before the " +
      "__syncthreads() at " + site + " that the others waited at. Every thread of a block must "
      "reach every __syncthreads(): an early `return`, or a barrier inside an `if` that not "
      "every thread takes, is undefined behaviour (older GPUs hang; newer ones may let the "
      "barrier pass without them). Keep every thread running through the barriers and guard "
      "only its loads and stores.";
  report_finding(kFindingExitedBeforeBarrier, site,
                 "early exit before the __syncthreads() at " + site, message);
}

void BlockRunner::report_absent_lane_read(unsigned warp_index, unsigned lanes) const {
  const unsigned lane = static_cast<unsigned>(std::countr_zero(lanes));
  const WarpRequest& request = warps_[warp_index].request(lane);
  const std::string site =
      std::string(source_display_name(request.site.file_name())) + ":" +
      std::to_string(request.site.line());
  const unsigned exited = warps_[warp_index].exited();
  std::string message =
      std::string(warp_op_name(request.op)) + " at " + site + " reads a lane that is not taking "
      "part: in kernel " + kernel_name() + ", lane " + std::to_string(lane) + " of warp " +
      std::to_string(warp_index) + " of block (" + std::to_string(block_idx_.x) + "," +
      std::to_string(block_idx_.y) + "," + std::to_string(block_idx_.z) + ") (mask " +
      hex_text(request.mask) + (exited != 0 ? ", lanes exited or absent " + hex_text(exited) : "") +
      ") gets a value from a lane outside the mask or already exited. On a GPU that value is "
      "undefined (here the lane got its own value back): every lane a shuffle reads must be in "
      "the mask and still running.";
  report_finding(kFindingInactiveLaneRead, site,
                 std::string(warp_op_name(request.op)) + " from an inactive lane at " + site,
                 message);
}

std::string BlockRunner::last_barrier_site() const {
  return std::string(source_display_name(last_barrier_.file_name())) + ":" +
         std::to_string(last_barrier_.line());
}

BarrierResult BlockRunner::barrier(Lane& self, std::source_location site, int predicate) {
  if (at_barrier_ == 0) {
    barrier_site_ = site;
    barrier_count_ = 0;
  } else if (!same_site(site, barrier_site_)) {
    report_divergent_barrier(site);
  }
  self.barrier_site = site;
  if (predicate != 0) ++barrier_count_;
  ++at_barrier_;
  if (barrier_complete()) {
    release_barrier(&self);
    return barrier_result_;
  }
  self.state = LaneState::at_barrier;
  const unsigned warp_index = self.linear / kWarpSize;
  if (warps_[warp_index].arrived() != 0) complete_pending(warp_index, &self);  // a __syncwarp
  suspend(self, LaneState::at_barrier);
  return barrier_result_;
}

bool BlockRunner::barrier_complete() const {
  const unsigned not_needed = job_->exited_threads_release_barriers ? exited_ : 0;
  return at_barrier_ > 0 && at_barrier_ + not_needed == lane_count_;
}

void BlockRunner::release_barrier(const Lane* self) {
  if (at_barrier_ < lane_count_) report_exited_before_barrier();
  ++barriers_passed_;
  last_barrier_ = barrier_site_;
  if (g_locked.race_check_enabled) race_shadow_.on_barrier();
  barrier_result_ = BarrierResult{barrier_count_, static_cast<int>(at_barrier_)};
  at_barrier_ = 0;
  for (Lane& lane : lanes_) {
    if (&lane != self && lane.state == LaneState::at_barrier) make_ready(lane);
  }
}

std::uint64_t BlockRunner::warp_collective(Lane& self, const WarpRequest& request) {
  const unsigned warp_index = self.linear / kWarpSize;
  const unsigned lane = self.linear % kWarpSize;
  if ((request.mask & lane_bit(lane)) == 0) report_warp_misuse(warp_index, &self, request, {});
  WarpState& warp = warps_[warp_index];
  warp.arrive(lane, request);
  if (warp.coalescing() != 0) {  // this lane now waits elsewhere: that may form the group
    const WarpCompletion formed = warp.try_coalesce(lanes_at_block_barrier(warp_index));
    if (formed.group != 0) wake_group(warp_index, formed.group, &self);
  }
  if (request.op == WarpOp::coalesce) {
    if ((warp.arrived() & lane_bit(lane)) != 0) suspend(self, LaneState::at_warp);
    return warp.result(lane);
  }
  const WarpCompletion done = warp.try_complete(request.mask, lanes_at_block_barrier(warp_index));
  if (!done.mismatch.empty()) report_warp_misuse(warp_index, &self, request, done.mismatch);
  if (done.group != 0) {
    if (g_locked.race_check_enabled) race_shadow_.on_warp_sync(warp_index);
    if (done.absent_reads != 0) report_absent_lane_read(warp_index, done.absent_reads);
    wake_group(warp_index, done.group, &self);
    return warp.result(lane);
  }
  if (warp.masks_differ()) complete_pending(warp_index, &self);
  if ((warp.arrived() & lane_bit(lane)) != 0) suspend(self, LaneState::at_warp);
  return warp.result(lane);
}

void BlockRunner::wake_group(unsigned warp, unsigned group, const Lane* self) {
  for (unsigned g = group; g != 0; g &= g - 1) {
    Lane& lane = lanes_[warp * kWarpSize + static_cast<unsigned>(std::countr_zero(g))];
    if (&lane != self) make_ready(lane);
  }
}

void BlockRunner::complete_pending(unsigned warp_index, const Lane* self) {
  WarpState& warp = warps_[warp_index];
  if (warp.coalescing() != 0) {
    const WarpCompletion formed = warp.try_coalesce(lanes_at_block_barrier(warp_index));
    if (formed.group != 0) wake_group(warp_index, formed.group, self);
  }
  unsigned pending = warp.arrived() & ~warp.coalescing();
  while (pending != 0) {
    const WarpRequest& waiting = warp.request(static_cast<unsigned>(std::countr_zero(pending)));
    const unsigned mask = waiting.mask;
    const WarpCompletion done = warp.try_complete(mask, lanes_at_block_barrier(warp_index));
    if (!done.mismatch.empty()) report_warp_misuse(warp_index, nullptr, waiting, done.mismatch);
    if (done.absent_reads != 0) report_absent_lane_read(warp_index, done.absent_reads);
    if (done.group != 0 && g_locked.race_check_enabled) race_shadow_.on_warp_sync(warp_index);
    if (done.group != 0) wake_group(warp_index, done.group, self);
    pending &= ~mask;
  }
}

unsigned BlockRunner::lanes_at_block_barrier(unsigned warp) const {
  if (at_barrier_ == 0) return 0;
  unsigned lanes = 0;
  const unsigned first = warp * kWarpSize;
  const unsigned end = std::min<unsigned>(first + kWarpSize, lane_count_);
  for (unsigned l = first; l < end; ++l) {
    if (lanes_[l].state == LaneState::at_barrier) lanes |= lane_bit(l - first);
  }
  return lanes;
}

void BlockRunner::yield(Lane& self) {
  make_ready(self);
  suspend(self, LaneState::ready);
}

unsigned BlockRunner::live_lanes_of_warp(const Lane& self) const {
  return warps_[self.linear / kWarpSize].live();
}

void BlockRunner::add_static_shared(std::size_t bytes) {
  static_shared_bytes_ += bytes;
  if (static_shared_bytes_ + job_->dynamic_shared_bytes > job_->shared_limit) {
    job_->abort(cudaErrorInvalidValue);
    throw LaunchAborted{};
  }
}

void BlockRunner::abandon_block() {
  // Lanes suspended mid-kernel sit on their fibers' stacks: destroying those fibers
  // unwinds them. Idle fibers are kept for the next block.
  std::vector<FiberSlot*> suspended;
  for (Lane& lane : lanes_) {
    if (lane.state == LaneState::ready || lane.state == LaneState::at_barrier ||
        lane.state == LaneState::at_warp) {
      suspended.push_back(lane.fiber);
    }
  }
  for (FiberSlot* slot : suspended) destroy_fiber(*slot);
  std::erase_if(fibers_, [&](const std::unique_ptr<FiberSlot>& slot) {
    return std::find(suspended.begin(), suspended.end(), slot.get()) != suspended.end();
  });
}

}  // namespace parlab_sim::detail
