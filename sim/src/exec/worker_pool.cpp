#include "exec/worker_pool.hpp"

#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <cstdlib>
#include <memory>

#include "config/runtime_settings.hpp"
#include "exec/block_runner.hpp"
#include "fault/signal_handlers.hpp"

namespace parlab_sim::detail {
namespace {

std::atomic<WorkerPool*> g_pool{nullptr};
std::mutex g_pool_creation;
WorkerPool* g_forgotten_pools = nullptr;  // in a fork's child: the parents' pools, never used

}  // namespace

void forget_pool_in_child() {
  // The parent's workers do not exist here; its mutexes may be held. Leak it, but keep
  // it reachable (a chain of pools, one per fork generation): LeakSanitizer.
  if (WorkerPool* parents = g_pool.load()) {
    parents->forgotten_before_ = g_forgotten_pools;
    g_forgotten_pools = parents;
  }
  g_pool.store(nullptr);
  new (&g_pool_creation) std::mutex;
}

unsigned WorkerPool::configured_worker_count() {
  if (const unsigned workers = runtime_settings().workers; workers != 0) return workers;
  cpu_set_t cpus;
  if (sched_getaffinity(0, sizeof(cpus), &cpus) == 0 && CPU_COUNT(&cpus) > 0) {
    return static_cast<unsigned>(CPU_COUNT(&cpus));
  }
  const unsigned hardware = std::thread::hardware_concurrency();
  return hardware > 0 ? hardware : 1;
}

WorkerPool& WorkerPool::instance() {
  if (WorkerPool* pool = g_pool.load(std::memory_order_acquire)) return *pool;
  std::lock_guard lock(g_pool_creation);
  if (WorkerPool* pool = g_pool.load()) return *pool;
  static std::once_flag fork_handler;
  std::call_once(fork_handler, [] { pthread_atfork(nullptr, nullptr, &forget_pool_in_child); });
  auto* pool = new WorkerPool(configured_worker_count());  // lives until exit
  g_pool.store(pool, std::memory_order_release);
  return *pool;
}

WorkerPool::WorkerPool(unsigned workers) : memory_(workers) {
  threads_.reserve(workers);
  for (unsigned i = 0; i < workers; ++i) {
    threads_.emplace_back([this, i] { worker_main(i); });
    threads_.back().detach();  // workers live until the process exits
  }
}

void WorkerPool::run(GridJob& job) {
  std::lock_guard launch(launch_mutex_);
  std::unique_lock lock(mutex_);
  job_ = &job;
  busy_ = worker_count();
  ++generation_;
  start_.notify_all();
  done_.wait(lock, [this] { return busy_ == 0; });
  job_ = nullptr;
}

WorkerPool::~WorkerPool() = default;

void WorkerPool::worker_main(unsigned index) {
  WorkerMemory& own = memory_[index];
  own.signal_stack = install_alternate_signal_stack();
  own.runner = std::make_unique<BlockRunner>();
  BlockRunner* const runner = own.runner.get();
  std::uint64_t seen = 0;
  for (;;) {
    GridJob* job = nullptr;
    {
      std::unique_lock lock(mutex_);
      start_.wait(lock, [&] { return generation_ != seen; });
      seen = generation_;
      job = job_;
    }
    while (!job->is_aborted()) {
      const std::uint64_t block = job->next_block.fetch_add(1, std::memory_order_relaxed);
      if (block >= job->block_count) break;
      // A seeded run starts the blocks in a shuffled order (grid_job.hpp).
      runner->run_block(*job, job->block_order.at(block));
    }
    std::lock_guard lock(mutex_);
    if (--busy_ == 0) done_.notify_all();
  }
}

}  // namespace parlab_sim::detail
