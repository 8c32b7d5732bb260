#pragma once
// The bookkeeping of one warp's collectives (shuffles, votes, __syncwarp): which
// lanes have arrived with which request, which lanes exited, and the results once
// every live lane named in the mask is there. Pure logic: the block runner does the
// waiting and waking.
#include <array>
#include <cstdint>
#include <string>

#include "parlab_sim/warp.hpp"

namespace parlab_sim::detail {

inline constexpr unsigned kWarpSize = 32;

inline unsigned lane_bit(unsigned lane) { return 1u << lane; }

struct WarpCompletion {
  unsigned group = 0;    // lanes whose collective completed (0: not complete yet)
  std::string mismatch;  // non-empty: the lanes disagree (different op or mask)
  unsigned absent_reads = 0;  // shuffles: lanes whose source lane was not taking part
};

class WarpState {
 public:
  // `present` names the lanes that exist (a last, partial warp has fewer than 32).
  void reset(unsigned present);
  void arrive(unsigned lane, const WarpRequest& request);
  void mark_exited(unsigned lane);
  // Completes the collective of the lanes in `mask` when every live one has arrived.
  // For __syncwarp, lanes waiting at the block's __syncthreads() (`at_block_barrier`)
  // count as there: since Volta a __syncthreads() also converges the warp, so
  // lanes of a warp-synchronous copy that left its loop early and wait at the block
  // barrier do not hold back the lanes still syncing in it (a GPU runs it through).
  // Shuffles and votes need every lane's value: they still wait.
  WarpCompletion try_complete(unsigned mask, unsigned at_block_barrier = 0);
  // coalesced_threads(): the lanes waiting in it form the group once every other live
  // lane of the warp waits elsewhere (another collective, the block barrier): the lanes
  // that took the branch together, as a GPU's active mask names them. Each gets the
  // group's mask as its result.
  WarpCompletion try_coalesce(unsigned at_block_barrier);
  unsigned coalescing() const { return coalescing_; }

  std::uint64_t result(unsigned lane) const { return results_[lane]; }
  const WarpRequest& request(unsigned lane) const { return requests_[lane]; }
  unsigned arrived() const { return arrived_; }
  // Some waiting lanes named different masks: only then can another lane's arrival
  // complete (or expose as mismatched) a collective other than its own.
  bool masks_differ() const { return masks_differ_; }
  unsigned exited() const { return exited_; }
  unsigned live() const { return ~exited_; }

 private:
  void compute_results(unsigned group);
  std::uint64_t shuffle_result(unsigned lane, unsigned group, bool& read_absent) const;

  unsigned arrived_ = 0;
  unsigned coalescing_ = 0;  // arrived lanes waiting in coalesced_threads()
  unsigned exited_ = 0;
  bool masks_differ_ = false;  // exited lanes and lanes that do not exist
  unsigned absent_reads_ = 0;
  std::array<WarpRequest, kWarpSize> requests_{};
  std::array<std::uint64_t, kWarpSize> results_{};
};

const char* warp_op_name(WarpOp op);

}  // namespace parlab_sim::detail
