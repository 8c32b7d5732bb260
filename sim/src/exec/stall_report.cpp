// The deadlock report: the block has lanes that have not finished, and none of them
// can run. Names what the stuck threads wait for and why it can never happen.
#include <bit>

#include "parlab_sim/source_names.hpp"
#include "exec/block_runner.hpp"
#include "fault/fatal_report.hpp"
#include "exec/race_check.hpp"
#include "parlab_sim/exit_codes.hpp"

namespace parlab_sim::detail {
namespace {

void add_lane_list(ReportText& text, unsigned lanes) {
  bool first = true;
  for (unsigned l = lanes; l != 0; l &= l - 1) {
    if (!first) text.add(',');
    first = false;
    text.add_decimal(static_cast<unsigned>(std::countr_zero(l)));
  }
}

}  // namespace

void BlockRunner::report_stall() const {
  // A race waiting for the block's end to name its cause is reported before the run stops.
  if (g_locked.race_check_enabled) race_check_finish_block();
  unsigned waiting_barrier = 0;
  unsigned waiting_warp = 0;
  const Lane* first_barrier = nullptr;
  const Lane* first_exited = nullptr;
  const Lane* first_warp = nullptr;
  for (const Lane& lane : lanes_) {
    if (lane.state == LaneState::at_barrier) {
      ++waiting_barrier;
      if (first_barrier == nullptr) first_barrier = &lane;
    } else if (lane.state == LaneState::at_warp) {
      ++waiting_warp;
      if (first_warp == nullptr) first_warp = &lane;
    } else if (lane.state == LaneState::exited && first_exited == nullptr) {
      first_exited = &lane;
    }
  }

  ReportText text;
  text.add("parlab-sim: deadlock in kernel ").add(kernel_name()).add(", block ").add_index(block_idx_);
  if (first_warp != nullptr) {
    const unsigned warp_index = first_warp->linear / kWarpSize;
    const WarpState& warp = warps_[warp_index];
    const WarpRequest& request = warp.request(first_warp->linear % kWarpSize);
    const unsigned missing = request.mask & warp.live() & ~warp.arrived();
    text.add(":\n  lanes ");
    add_lane_list(text, warp.arrived());
    text.add(" of warp ").add_decimal(warp_index).add(" wait in ").add(warp_op_name(request.op));
    text.add("(mask ").add_hex(request.mask).add(") for lanes ");
    add_lane_list(text, missing);
    const unsigned first_missing = static_cast<unsigned>(std::countr_zero(missing));
    const Lane* blocker =
        missing != 0 ? &lanes_[warp_index * kWarpSize + first_missing] : nullptr;
    if (blocker != nullptr && blocker->state == LaneState::at_barrier) {
      text.add(", which wait at __syncthreads() (")
          .add(source_display_name(blocker->barrier_site.file_name()));
      text.add(':').add_decimal(blocker->barrier_site.line()).add(")");
    } else {
      text.add(", which never make that call");
    }
    text.add(".\n  Every non-exited lane named in the mask must make the same warp call.");
  } else {
    text.add(":\n  ").add_decimal(waiting_barrier).add(" of ").add_decimal(lane_count_);
    text.add(" threads wait at __syncthreads()");
    if (first_barrier != nullptr) {
      text.add(" (").add(source_display_name(first_barrier->barrier_site.file_name())).add(':');
      text.add_decimal(first_barrier->barrier_site.line()).add(")");
    }
    text.add(", but ").add_decimal(exited_).add(" threads exited without reaching it");
    if (first_exited != nullptr) text.add(" (e.g. thread ").add_index(first_exited->thread_idx).add(")");
    text.add(".\n  The CUDA programming guide allows __syncthreads() only where every thread "
             "of the block\n  reaches it: move an early `if (i >= n) return;` below the last "
             "barrier, or guard the\n  work instead of returning. (GPUs before Volta hang here; "
             "newer ones let the exited\n  threads go. PARLAB_SIM_ALLOW_EXITED_AT_BARRIER=1 "
             "simulates the latter.)");
  }
  finish_report(text, kExitDeadlock);
}

}  // namespace parlab_sim::detail
