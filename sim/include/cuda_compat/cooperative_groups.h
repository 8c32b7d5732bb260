#pragma once
// Cooperative groups in sim mode (docs/simulation.md, "What is supported"): the block,
// tiles of a warp (tiled_partition<N>) with their shuffles, votes and sync, the
// coalesced group of active lanes, and the grid (sync() when every block can run at
// once: no more blocks than the simulator's workers, its multiprocessor count). Each call maps to
// the simulated __syncthreads / __syncwarp / __shfl_*_sync, so the simulator's checks
// (divergent barriers, inactive lanes, races) apply and name the student's line.
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <source_location>
#include <vector>

#include "parlab_sim/runtime.hpp"
#include "parlab_sim/runtime_allocator.hpp"

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

// Any group, as `thread_group g = ...` keeps it (a copy of the base): the block, a
// tile of a warp (tiled_partition(parent, n) and the templated tiles), the coalesced
// lanes or the grid. sync / thread_rank / size answer for that group.
class thread_group {
 public:
  void sync(std::source_location site = std::source_location::current()) const {
    switch (kind_) {
      case kind::block: __syncthreads(site); return;
      case kind::grid: parlab_sim::detail::grid_sync(site); return;
      case kind::tile:
        if (tile_ > 32) {
          __syncthreads(site);
          return;
        }
        [[fallthrough]];
      case kind::lanes: __syncwarp(lanes_mask()); return;
    }
  }
  unsigned long long thread_rank() const {
    const unsigned rank = parlab_sim::detail::linear_thread_rank();
    switch (kind_) {
      case kind::block: return rank;
      case kind::grid: return grid_block_rank() * parlab_sim::detail::block_thread_count() + rank;
      case kind::tile: return rank % tile_;
      case kind::lanes: return static_cast<unsigned>(std::popcount(mask_ & ((1u << (rank % 32)) - 1u)));
    }
    return 0;
  }
  unsigned long long size() const {
    switch (kind_) {
      case kind::block: return parlab_sim::detail::block_thread_count();
      case kind::grid:
        return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z *
               parlab_sim::detail::block_thread_count();
      case kind::tile: return tile_;
      case kind::lanes: return static_cast<unsigned>(std::popcount(mask_));
    }
    return 0;
  }
  unsigned long long num_threads() const { return size(); }

 protected:
  enum class kind { block, grid, tile, lanes };
  explicit thread_group(kind k, unsigned tile = 0, unsigned mask = 0) : kind_(k), tile_(tile), mask_(mask) {}
  static unsigned long long grid_block_rank() {
    return blockIdx.x + static_cast<unsigned long long>(gridDim.x) * (blockIdx.y + gridDim.y * blockIdx.z);
  }
  // The lanes of this thread's tile (or the coalesced lanes) in its warp.
  unsigned lanes_mask() const {
    if (kind_ == kind::lanes) return mask_;
    const unsigned base = (parlab_sim::detail::linear_thread_rank() % 32) & ~(tile_ - 1);
    return tile_ == 32 ? 0xffffffffu : ((1u << tile_) - 1u) << base;
  }

 private:
  kind kind_;
  unsigned tile_;
  unsigned mask_;
};

class thread_block : public thread_group {
 public:
  thread_block() : thread_group(kind::block) {}
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

// The scratch a GPU needs for tiles of more than 32 threads (declared __shared__): the
// simulator keeps its own, so this holds nothing. CUDA 12 spells it
// block_tile_memory<MaxBlockSize>, CUDA 11 experimental::block_tile_memory<TileCommSize,
// MaxBlockSize>: both forms are accepted.
template <unsigned First = 1024, unsigned Second = 0>
struct block_tile_memory {};

template <unsigned First, unsigned Second>
thread_block this_thread_block(block_tile_memory<First, Second>&) {
  return thread_block();
}

namespace experimental {
using ::cooperative_groups::block_tile_memory;
using ::cooperative_groups::this_thread_block;
}  // namespace experimental

class grid_group : public thread_group {
 public:
  grid_group() : thread_group(kind::grid) {}
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
  dim3 dim_blocks() const { return gridDim; }
  dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  unsigned long long block_rank() const { return grid_block_rank(); }
  unsigned long long num_blocks() const {
    return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z;
  }
};

inline grid_group this_grid() { return grid_group(); }

namespace detail {
// A multi-warp tile's exchange slots, one per thread of the block: worker threads run
// one block at a time, so per-OS-thread storage is per block, as __shared__ is. The
// runtime's allocator: this code is compiled into the submission's object, whose new
// and delete give a kernel's thread device heap memory (parlab_sim/runtime_allocator.hpp).
template <class T>
T* tile_slots() {
  thread_local std::vector<T, parlab_sim::detail::RuntimeAllocator<T>> slots;
  if (slots.size() < parlab_sim::detail::block_thread_count()) slots.resize(parlab_sim::detail::block_thread_count());
  return slots.data();
}
}  // namespace detail

// Size consecutive threads (in linear order); Size a power of two up to 1024. Up to 32
// they are lanes of one warp; a larger tile (several warps, as a block_tile_memory
// allows on a GPU) synchronizes with the block barrier, so every thread of the block
// must reach its collectives (docs/simulation.md, "Multi-warp tiles").
// The parent type (thread_block_tile<32, thread_block>) changes nothing here.
template <unsigned Size, class ParentT = void>
class thread_block_tile : public thread_group {
  static_assert(Size >= 1 && Size <= 1024 && (Size & (Size - 1)) == 0,
                "tiled_partition<N>: N must be a power of two up to 1024");

 public:
  thread_block_tile() : thread_group(kind::tile, Size) {}
  template <class OtherParent>
  thread_block_tile(const thread_block_tile<Size, OtherParent>&) : thread_block_tile() {}
  unsigned lane_in_warp() const { return parlab_sim::detail::linear_thread_rank() % 32; }
  unsigned mask() const {
    static_assert(Size <= 32, "a multi-warp tile has no lane mask");
    const unsigned base = lane_in_warp() & ~(Size - 1);
    return Size == 32 ? 0xffffffffu : ((1u << Size) - 1u) << base;
  }
  void sync(std::source_location site = std::source_location::current()) const {
    if constexpr (Size > 32) {
      __syncthreads(site);
    } else {
      __syncwarp(mask());
    }
  }
  unsigned long long thread_rank() const { return parlab_sim::detail::linear_thread_rank() % Size; }
  unsigned long long size() const { return Size; }
  unsigned long long num_threads() const { return Size; }
  unsigned long long meta_group_rank() const { return parlab_sim::detail::linear_thread_rank() / Size; }
  unsigned long long meta_group_size() const {
    return (parlab_sim::detail::block_thread_count() + Size - 1) / Size;
  }
  // A multi-warp tile's shuffle: every thread posts its value, then reads its source's.
  template <class T>
  T exchange(T value, unsigned source_rank, std::source_location site) const {
    T* slots = detail::tile_slots<T>();
    const unsigned rank = parlab_sim::detail::linear_thread_rank();
    slots[rank] = value;
    __syncthreads(site);
    const T result = slots[rank - rank % Size + source_rank % Size];
    __syncthreads(site);
    return result;
  }
  // The fold of the tile's values in rank order (for cooperative_groups::reduce).
  template <class T, class Op>
  T fold(T value, Op op, std::source_location site) const {
    T* slots = detail::tile_slots<T>();
    const unsigned rank = parlab_sim::detail::linear_thread_rank();
    slots[rank] = value;
    __syncthreads(site);
    const unsigned first = rank - rank % Size;
    T result = slots[first];
    for (unsigned r = 1; r < Size && first + r < parlab_sim::detail::block_thread_count(); ++r) {
      result = op(result, slots[first + r]);
    }
    __syncthreads(site);
    return result;
  }

  template <class T>
  T shfl(T value, int source, std::source_location site = std::source_location::current()) const {
    if constexpr (Size > 32) {
      return exchange(value, static_cast<unsigned>(source), site);
    } else {
      return __shfl_sync(mask(), value, source, Size, site);
    }
  }
  template <class T>
  T shfl_down(T value, unsigned delta, std::source_location site = std::source_location::current()) const {
    if constexpr (Size > 32) {
      return exchange(value, static_cast<unsigned>(thread_rank() + delta < Size ? thread_rank() + delta : thread_rank()), site);
    } else {
      return __shfl_down_sync(mask(), value, delta, Size, site);
    }
  }
  template <class T>
  T shfl_up(T value, unsigned delta, std::source_location site = std::source_location::current()) const {
    if constexpr (Size > 32) {
      return exchange(value, static_cast<unsigned>(thread_rank() >= delta ? thread_rank() - delta : thread_rank()), site);
    } else {
      return __shfl_up_sync(mask(), value, delta, Size, site);
    }
  }
  template <class T>
  T shfl_xor(T value, unsigned lane_mask, std::source_location site = std::source_location::current()) const {
    if constexpr (Size > 32) {
      return exchange(value, static_cast<unsigned>(thread_rank() ^ lane_mask), site);
    } else {
      return __shfl_xor_sync(mask(), value, static_cast<int>(lane_mask), Size, site);
    }
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
thread_block_tile<Size, Parent> tiled_partition(const Parent&) {
  return thread_block_tile<Size, Parent>();
}

namespace detail {
// The dynamic tiled_partition's size check: a power of two up to 32, as CUDA requires.
class dynamic_tile : public thread_group {
 public:
  explicit dynamic_tile(unsigned size) : thread_group(kind::tile, size) {
    if (size == 0 || size > 32 || (size & (size - 1)) != 0) {
      std::fprintf(stderr,
                   "parlab sim: tiled_partition(parent, %u): the size must be a power of two up "
                   "to 32\n",
                   size);
      std::abort();
    }
  }
};
}  // namespace detail

// tiled_partition(parent, n): tiles of n consecutive threads of a warp, as a thread_group.
template <class Parent>
thread_group tiled_partition(const Parent&, unsigned size) {
  return detail::dynamic_tile(size);
}

namespace detail {
// The lanes of the calling warp that reach coalesced_threads() together: a lane waits
// there until every other live lane of its warp waits somewhere (this call, another
// collective, the block barrier) or has exited; those here form the group, as the
// lanes that took a branch together do on a GPU (exec/warp_state, try_coalesce).
inline unsigned coalesced_lanes() {
  using parlab_sim::detail::WarpOp;
  return static_cast<unsigned>(
      parlab_sim::detail::warp_collective({WarpOp::coalesce, 0xffffffffu, 0, 0, 32, false}));
}
}  // namespace detail

// The lanes of the warp that are running this code together.
class coalesced_group : public thread_group {
 public:
  coalesced_group() : coalesced_group(detail::coalesced_lanes()) {}
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
  explicit coalesced_group(unsigned mask) : thread_group(kind::lanes, 0, mask), mask_(mask) {}
  unsigned mask_;
};

inline coalesced_group coalesced_threads() { return coalesced_group(); }

template <class Group>
void sync(const Group& group) {
  group.sync();
}

}  // namespace cooperative_groups
