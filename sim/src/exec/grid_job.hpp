#pragma once
// One kernel launch as the workers see it: the blocks still to run and whether the
// launch was aborted (a block over the shared-memory limit).
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>

#include "counters/access_counters.hpp"
#include "exec/shuffled_order.hpp"
#include "parlab_sim/launch.hpp"

namespace parlab_sim::detail {

struct GridJob {
  const LaunchRequest* request = nullptr;
  std::uint64_t block_count = 0;
  unsigned threads_per_block = 0;
  std::size_t dynamic_shared_bytes = 0;
  std::size_t shared_limit = 0;  // static + dynamic bytes a block may use
  // PARLAB_SIM_ALLOW_EXITED_AT_BARRIER: threads that exited no longer hold a
  // __syncthreads back (Volta+ hardware) instead of being reported as a deadlock.
  bool exited_threads_release_barriers = false;
  // PARLAB_SIM_SEED: the blocks start in `block_order`, and each block's threads in an
  // order drawn from `seed` and the block, so an answer that depends on the order threads
  // run in changes from run to run (the grader's re-run, grading/schedule_check). The
  // divergence counter samples the two blocks `sampled_blocks`, drawn from the seed too.
  bool seeded = false;
  std::uint64_t seed = 0;
  ShuffledOrder block_order;
  std::uint64_t sampled_blocks[2] = {0, 1};
  // Which of the two sampled blocks `block` is (0 or 1), or -1.
  int sample_slot(std::uint64_t block) const {
    return block == sampled_blocks[0] ? 0 : block == sampled_blocks[1] ? 1 : -1;
  }
  // The launch's counter totals, where each block's figures go when it ends: set by the
  // launch when the counters are on (null otherwise).
  LaunchCounters* counters = nullptr;
  std::atomic<std::uint64_t> next_block{0};
  std::atomic<bool> aborted{false};
  std::atomic<int> abort_error{cudaSuccess};

  // cooperative_groups::this_grid().sync() (exec/device_calls.cpp): one thread of each
  // block waits here until every block has arrived. Only when every block runs at once
  // (no more blocks than workers).
  std::mutex grid_mutex;
  std::condition_variable grid_wake;
  std::uint64_t grid_arrived = 0;
  std::uint64_t grid_generation = 0;
  std::uint64_t blocks_finished = 0;

  void abort(cudaError_t error) {
    int expected = cudaSuccess;
    abort_error.compare_exchange_strong(expected, error);
    aborted.store(true, std::memory_order_release);
    { std::lock_guard lock(grid_mutex); }
    grid_wake.notify_all();  // blocks waiting at a grid sync stop too
  }
  void block_finished() {
    { std::lock_guard lock(grid_mutex); ++blocks_finished; }
    grid_wake.notify_all();
  }
  bool is_aborted() const { return aborted.load(std::memory_order_acquire); }
};

// Thrown inside a CUDA thread to stop it when its launch is aborted.
struct LaunchAborted {};

}  // namespace parlab_sim::detail
