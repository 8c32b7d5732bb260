#pragma once
// One kernel launch as the workers see it: the blocks still to run and whether the
// launch was aborted (a block over the shared-memory limit).
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>

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
  // PARLAB_SIM_SCHEDULE=reverse: the blocks, and each block's threads, start last first,
  // so an answer that depends on the order threads run in changes (the grader's
  // schedule-perturbation re-run, grading/schedule_check).
  bool reverse_schedule = false;
  std::atomic<std::uint64_t> next_block{0};
  std::atomic<bool> aborted{false};
  std::atomic<int> abort_error{cudaSuccess};

  // cooperative_groups::this_grid().sync() (exec/grid_sync.cpp): one thread of each
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
