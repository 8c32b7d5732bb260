// Results of warp collectives, following the CUDA programming guide's definitions of
// the _sync shuffles and votes for the lanes that take part.
#include "exec/warp_state.hpp"

#include <algorithm>
#include <bit>

namespace parlab_sim::detail {
namespace {

unsigned segment_width(int width) {
  // CUDA requires a power of two up to 32; anything else behaves as the full warp.
  const unsigned w = static_cast<unsigned>(width);
  return (width > 0 && w <= kWarpSize && std::has_single_bit(w)) ? w : kWarpSize;
}

std::string hex(unsigned value) {
  static const char* digits = "0123456789abcdef";
  std::string text = "0x";
  for (int shift = 28; shift >= 0; shift -= 4) text += digits[(value >> shift) & 0xfu];
  return text;
}

}  // namespace

const char* warp_op_name(WarpOp op) {
  switch (op) {
    case WarpOp::sync: return "__syncwarp";
    case WarpOp::shfl: return "__shfl_sync";
    case WarpOp::shfl_up: return "__shfl_up_sync";
    case WarpOp::shfl_down: return "__shfl_down_sync";
    case WarpOp::shfl_xor: return "__shfl_xor_sync";
    case WarpOp::ballot: return "__ballot_sync";
    case WarpOp::any: return "__any_sync";
    case WarpOp::all: return "__all_sync";
    case WarpOp::match_any: return "__match_any_sync";
    case WarpOp::match_all: return "__match_all_sync";
    case WarpOp::reduce_add: return "__reduce_add_sync";
    case WarpOp::reduce_min: return "__reduce_min_sync";
    case WarpOp::reduce_max: return "__reduce_max_sync";
    case WarpOp::reduce_and: return "__reduce_and_sync";
    case WarpOp::reduce_or: return "__reduce_or_sync";
    case WarpOp::reduce_xor: return "__reduce_xor_sync";
    case WarpOp::coalesce: return "coalesced_threads()";
  }
  return "warp collective";
}

void WarpState::reset(unsigned present) {
  arrived_ = 0;
  coalescing_ = 0;
  exited_ = ~present;
}

void WarpState::arrive(unsigned lane, const WarpRequest& request) {
  if (request.op == WarpOp::coalesce) {  // no mask of its own to compare
    requests_[lane] = request;
    arrived_ |= lane_bit(lane);
    coalescing_ |= lane_bit(lane);
    return;
  }
  const unsigned others = arrived_ & ~coalescing_;
  if (others == 0) {
    masks_differ_ = false;
  } else if (requests_[static_cast<unsigned>(std::countr_zero(others))].mask != request.mask) {
    masks_differ_ = true;
  }
  requests_[lane] = request;
  arrived_ |= lane_bit(lane);
}

void WarpState::mark_exited(unsigned lane) {
  exited_ |= lane_bit(lane);
  arrived_ &= ~lane_bit(lane);
  coalescing_ &= ~lane_bit(lane);
}

WarpCompletion WarpState::try_coalesce(unsigned at_block_barrier) {
  if (coalescing_ == 0) return {};
  const unsigned running = ~exited_ & ~arrived_ & ~at_block_barrier;
  if (running != 0) return {};
  const unsigned group = coalescing_;
  for (unsigned g = group; g != 0; g &= g - 1) results_[static_cast<unsigned>(std::countr_zero(g))] = group;
  arrived_ &= ~group;
  coalescing_ = 0;
  return {group, {}, 0};
}

WarpCompletion WarpState::try_complete(unsigned mask, unsigned at_block_barrier) {
  // Lanes in coalesced_threads() are not at this collective yet: they count as absent
  // from it until try_coalesce lets them go on.
  const unsigned arrived = arrived_ & ~coalescing_;
  const unsigned waiting = arrived & mask;
  const bool warp_sync = waiting != 0 &&
                         requests_[static_cast<unsigned>(std::countr_zero(waiting))].op == WarpOp::sync;
  const unsigned needed = mask & ~exited_ & ~(warp_sync ? at_block_barrier : 0u);
  if (needed == 0 || (arrived & needed) != needed) return {};
  const unsigned first = static_cast<unsigned>(std::countr_zero(needed));
  const WarpRequest& reference = requests_[first];
  for (unsigned group = needed; group != 0; group &= group - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(group));
    const WarpRequest& other = requests_[lane];
    if (other.op != reference.op || other.mask != reference.mask) {
      return {needed, "lane " + std::to_string(first) + " called " + warp_op_name(reference.op) +
                          "(mask " + hex(reference.mask) + ") while lane " + std::to_string(lane) +
                          " called " + warp_op_name(other.op) + "(mask " + hex(other.mask) +
                          "); every lane named in the mask must make the same call"};
    }
  }
  absent_reads_ = 0;
  compute_results(needed);
  arrived_ &= ~needed;
  return {needed, {}, absent_reads_};
}

std::uint64_t WarpState::shuffle_result(unsigned lane, unsigned group, bool& read_absent) const {
  const WarpRequest& request = requests_[lane];
  const unsigned width = segment_width(request.width);
  const unsigned segment = lane & ~(width - 1);
  const unsigned position = lane & (width - 1);
  long source = lane;
  switch (request.op) {
    case WarpOp::shfl:
      source = segment + (static_cast<unsigned>(request.arg) & (width - 1));
      break;
    case WarpOp::shfl_up:
      if (request.arg >= 0 && position >= static_cast<unsigned>(request.arg)) {
        source = static_cast<long>(lane) - request.arg;
      }
      break;
    case WarpOp::shfl_down:
      if (request.arg >= 0 && position + static_cast<unsigned>(request.arg) < width) {
        source = static_cast<long>(lane) + request.arg;
      }
      break;
    case WarpOp::shfl_xor: {
      const unsigned target = lane ^ static_cast<unsigned>(request.arg);
      // Earlier segments may be read, later ones give the caller's own value.
      if (target < kWarpSize && (target & ~(width - 1)) <= segment) source = target;
      break;
    }
    default:
      break;
  }
  // Reading an absent lane is undefined in CUDA; the caller keeps its own value.
  if ((group & lane_bit(static_cast<unsigned>(source))) == 0) {
    read_absent = true;
    source = lane;
  }
  return requests_[static_cast<unsigned>(source)].value;
}

void WarpState::compute_results(unsigned group) {
  const WarpRequest& reference = requests_[static_cast<unsigned>(std::countr_zero(group))];
  unsigned ballot = 0;
  for (unsigned g = group; g != 0; g &= g - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(g));
    if (requests_[lane].value != 0) ballot |= lane_bit(lane);
  }
  std::uint64_t reduction = 0;
  bool first = true;
  bool all_equal = true;
  for (unsigned g = group; g != 0; g &= g - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(g));
    const auto value = static_cast<std::uint32_t>(requests_[lane].value);
    const auto current = static_cast<std::uint32_t>(reduction);
    if (requests_[lane].value != reference.value) all_equal = false;
    if (first) {
      reduction = value;
      first = false;
      continue;
    }
    switch (reference.op) {
      case WarpOp::reduce_add: reduction = current + value; break;
      case WarpOp::reduce_and: reduction = current & value; break;
      case WarpOp::reduce_or: reduction = current | value; break;
      case WarpOp::reduce_xor: reduction = current ^ value; break;
      case WarpOp::reduce_min:
        reduction = reference.is_signed
                        ? static_cast<std::uint32_t>(std::min(static_cast<std::int32_t>(current),
                                                              static_cast<std::int32_t>(value)))
                        : std::min(current, value);
        break;
      case WarpOp::reduce_max:
        reduction = reference.is_signed
                        ? static_cast<std::uint32_t>(std::max(static_cast<std::int32_t>(current),
                                                              static_cast<std::int32_t>(value)))
                        : std::max(current, value);
        break;
      default: break;
    }
  }
  for (unsigned g = group; g != 0; g &= g - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(g));
    std::uint64_t& result = results_[lane];
    switch (reference.op) {
      case WarpOp::sync: result = 0; break;
      case WarpOp::shfl:
      case WarpOp::shfl_up:
      case WarpOp::shfl_down:
      case WarpOp::shfl_xor: {
        bool read_absent = false;
        result = shuffle_result(lane, group, read_absent);
        if (read_absent) absent_reads_ |= lane_bit(lane);
        break;
      }
      case WarpOp::ballot: result = ballot; break;
      case WarpOp::any: result = ballot != 0 ? 1 : 0; break;
      case WarpOp::all: result = ballot == group ? 1 : 0; break;
      case WarpOp::match_any: {
        unsigned same = 0;
        for (unsigned h = group; h != 0; h &= h - 1) {
          const unsigned other = static_cast<unsigned>(std::countr_zero(h));
          if (requests_[other].value == requests_[lane].value) same |= lane_bit(other);
        }
        result = same;
        break;
      }
      case WarpOp::match_all: result = all_equal ? group : 0; break;
      default: result = reduction; break;
    }
  }
}

}  // namespace parlab_sim::detail
