#pragma once
// The OS threads that run blocks: one per available core (PARLAB_SIM_WORKERS
// overrides), each with its own BlockRunner. A launch hands them a GridJob and waits
// until every block ran. One launch runs at a time.
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "exec/grid_job.hpp"

namespace parlab_sim::detail {

class BlockRunner;

class WorkerPool {
 public:
  // Created on first use. In a child made by fork() the workers do not exist, so the
  // child gets a fresh pool (the parent's is abandoned, never touched).
  static WorkerPool& instance();
  static unsigned configured_worker_count();

  explicit WorkerPool(unsigned workers);
  ~WorkerPool();  // never runs: a pool lives until exit
  unsigned worker_count() const { return static_cast<unsigned>(threads_.size()); }
  void run(GridJob& job);

 private:
  friend void forget_pool_in_child();
  void worker_main(unsigned index);

  // What a worker owns, held here rather than on the worker's stack: a fork's child
  // keeps the parent's pool but not its workers (fork copies one thread), and memory
  // reachable only from their stacks would be a leak at the child's exit (LeakSanitizer).
  struct WorkerMemory {
    std::unique_ptr<BlockRunner> runner;
    std::unique_ptr<char[]> signal_stack;
  };
  std::vector<WorkerMemory> memory_;  // sized before the threads start; [i] is worker i's
  WorkerPool* forgotten_before_ = nullptr;  // in a fork's child: the pool forgotten before this

  std::mutex launch_mutex_;  // one grid at a time
  std::mutex mutex_;
  std::condition_variable start_;
  std::condition_variable done_;
  GridJob* job_ = nullptr;
  std::uint64_t generation_ = 0;
  unsigned busy_ = 0;
  std::vector<std::thread> threads_;
};

}  // namespace parlab_sim::detail
