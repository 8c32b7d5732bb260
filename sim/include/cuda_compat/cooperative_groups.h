#pragma once
// Cooperative groups in sim mode (docs/simulation.md, "What is supported"): the block,
// tiles of a warp (tiled_partition<N>) with their shuffles, votes and sync, the
// coalesced group of active lanes, and the grid (sync() when every block can run at
// once: no more blocks than the simulator's workers, its multiprocessor count). Each call maps to
// the simulated __syncthreads / __syncwarp / __shfl_*_sync, so the simulator's checks
// (divergent barriers, inactive lanes, races) apply and name the student's line.
#include <bit>
#include <source_location>

#include "parlab_sim/runtime.hpp"

namespace parlab_sim::detail {
// Every block waits for every other (exec/device_calls.cpp); refused with a report when
// the grid has more blocks than can run at once.
void grid_sync(std::source_location site);
inline unsigned linear_thread_rank() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
inline unsigned block_thread_count() { return blockDim.x * blockDim.y * blockDim.z; }
}  // namespace parlab_sim::detail

namespace cooperative_groups {

class thread_group {
 public:
  virtual ~thread_group() = default;
};

class thread_block : public thread_group {
 public:
  void sync(std::source_location site = std::source_location::current()) const { __syncthreads(site); }
  unsigned long long thread_rank() const { return parlab_sim::detail::linear_thread_rank(); }
  unsigned long long size() const { return parlab_sim::detail::block_thread_count(); }
  unsigned long long num_threads() const { return size(); }
  dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  dim3 group_dim() const { return blockDim; }
  dim3 dim_threads() const { return blockDim; }
};

inline thread_block this_thread_block() { return thread_block(); }

class grid_group : public thread_group {
 public:
  void sync(std::source_location site = std::source_location::current()) const {
    parlab_sim::detail::grid_sync(site);
  }
  bool is_valid() const { return true; }
  unsigned long long thread_rank() const {
    const unsigned long long block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    return block * parlab_sim::detail::block_thread_count() + parlab_sim::detail::linear_thread_rank();
  }
  unsigned long long size() const {
    return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z *
           parlab_sim::detail::block_thread_count();
  }
  unsigned long long num_threads() const { return size(); }
  dim3 group_dim() const { return gridDim; }
};

inline grid_group this_grid() { return grid_group(); }

// Size consecutive threads (in linear order) of one warp; Size a power of two <= 32.
template <unsigned Size>
class thread_block_tile : public thread_group {
  static_assert(Size >= 1 && Size <= 32 && (Size & (Size - 1)) == 0,
                "tiled_partition<N>: N must be a power of two up to 32");

 public:
  unsigned lane_in_warp() const { return parlab_sim::detail::linear_thread_rank() % 32; }
  unsigned mask() const {
    const unsigned base = lane_in_warp() & ~(Size - 1);
    return Size == 32 ? 0xffffffffu : ((1u << Size) - 1u) << base;
  }
  void sync() const { __syncwarp(mask()); }
  unsigned long long thread_rank() const { return lane_in_warp() % Size; }
  unsigned long long size() const { return Size; }
  unsigned long long num_threads() const { return Size; }
  unsigned long long meta_group_rank() const { return parlab_sim::detail::linear_thread_rank() / Size; }
  unsigned long long meta_group_size() const {
    return (parlab_sim::detail::block_thread_count() + Size - 1) / Size;
  }

  template <class T>
  T shfl(T value, int source, std::source_location site = std::source_location::current()) const {
    return __shfl_sync(mask(), value, source, Size, site);
  }
  template <class T>
  T shfl_down(T value, unsigned delta, std::source_location site = std::source_location::current()) const {
    return __shfl_down_sync(mask(), value, delta, Size, site);
  }
  template <class T>
  T shfl_up(T value, unsigned delta, std::source_location site = std::source_location::current()) const {
    return __shfl_up_sync(mask(), value, delta, Size, site);
  }
  template <class T>
  T shfl_xor(T value, unsigned lane_mask, std::source_location site = std::source_location::current()) const {
    return __shfl_xor_sync(mask(), value, static_cast<int>(lane_mask), Size, site);
  }
  // Votes answer for the tile's lanes, numbered from 0 like thread_rank().
  unsigned ballot(int predicate) const {
    return (__ballot_sync(mask(), predicate) & mask()) >> (lane_in_warp() & ~(Size - 1));
  }
  int any(int predicate) const { return ballot(predicate) != 0 ? 1 : 0; }
  int all(int predicate) const {
    return ballot(predicate) == (Size == 32 ? 0xffffffffu : (1u << Size) - 1u) ? 1 : 0;
  }
  template <class T>
  unsigned match_any(T value) const {
    return (__match_any_sync(mask(), value) & mask()) >> (lane_in_warp() & ~(Size - 1));
  }
};

template <unsigned Size, class Parent>
thread_block_tile<Size> tiled_partition(const Parent&) {
  return thread_block_tile<Size>();
}

// The lanes of the warp that are running this code together.
class coalesced_group : public thread_group {
 public:
  coalesced_group() : mask_(__activemask()) {}
  unsigned lane_in_warp() const { return parlab_sim::detail::linear_thread_rank() % 32; }
  void sync() const { __syncwarp(mask_); }
  unsigned long long thread_rank() const {
    return static_cast<unsigned>(std::popcount(mask_ & ((1u << lane_in_warp()) - 1u)));
  }
  unsigned long long size() const { return static_cast<unsigned>(std::popcount(mask_)); }
  unsigned long long num_threads() const { return size(); }
  template <class T>
  T shfl(T value, unsigned rank, std::source_location site = std::source_location::current()) const {
    unsigned bits = mask_;
    for (unsigned r = 0; r < rank && bits != 0; ++r) bits &= bits - 1;  // drop `rank` lanes
    const int lane = bits != 0 ? std::countr_zero(bits) : static_cast<int>(lane_in_warp());
    return __shfl_sync(mask_, value, lane, 32, site);
  }
  unsigned ballot(int predicate) const { return __ballot_sync(mask_, predicate); }
  int any(int predicate) const { return __any_sync(mask_, predicate); }
  int all(int predicate) const { return __all_sync(mask_, predicate); }

 private:
  unsigned mask_;
};

inline coalesced_group coalesced_threads() { return coalesced_group(); }

template <class Group>
void sync(const Group& group) {
  group.sync();
}

}  // namespace cooperative_groups
