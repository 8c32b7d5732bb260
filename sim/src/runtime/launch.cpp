// From a launch request to blocks running on the workers: the checks CUDA makes at
// launch time, the launch itself, and the kernel-argument check.
#include <atomic>
#include <cstdint>
#include <string>

#include "config/runtime_settings.hpp"
#include "exec/execution_state.hpp"
#include "device/launch_limits.hpp"
#include "exec/sampled_blocks.hpp"
#include "exec/worker_pool.hpp"
#include "fault/fatal_report.hpp"
#include "fault/signal_handlers.hpp"
#include "parlab_sim/exit_codes.hpp"
#include "parlab_sim/launch.hpp"
#include "parlab_sim/unsupported_feature.hpp"
#include "counters/access_counters.hpp"
#include "exec/race_check.hpp"
#include "copies/deferred_copies.hpp"
#include "memory/device_heap.hpp"
#include "memory/device_pages.hpp"
#include "runtime/device_context.hpp"
#include "runtime/managed_kernel_writes.hpp"
#include "memory/memory_registry.hpp"

namespace parlab_sim::detail {

cudaError_t check_launch(const LaunchRequest& request) {
  const LaunchConfig& config = request.config;
  if (const cudaError_t error = check_dimensions(config.grid, config.block); error != cudaSuccess) {
    return error;
  }
  if (config.dynamic_shared_bytes > dynamic_shared_limit(request.kernel)) {
    return cudaErrorInvalidValue;
  }
  if (!is_valid_stream(config.stream)) return cudaErrorInvalidResourceHandle;
  return cudaSuccess;
}

namespace {

// Each launch of a seeded run gets its own block order, thread orders and sampled blocks
// (from the sample seed, when there is one: the same blocks in every run of a grading).
void choose_orders(GridJob& job, const RuntimeSettings& settings) {
  const std::uint64_t launch = mix_seed(device_context().launches.fetch_add(1, std::memory_order_relaxed));
  job.seeded = true;
  job.seed = mix_seed(settings.seed ^ launch);
  job.block_order = ShuffledOrder(job.seed, job.block_count);
  const std::uint64_t sample_seed = settings.sample_seeded ? mix_seed(settings.sample_seed ^ launch) : job.seed;
  const ShuffledOrder sample_order(mix_seed(~sample_seed), job.block_count);
  // By the region of the data, not the block number (exec/sampled_blocks.hpp).
  const LaunchConfig& config = job.request->config;
  draw_sampled_blocks(mix_seed(~sample_seed), config.grid, config.block,
                      job.block_count > 1 ? sample_order.at(1) : 0, job.sampled_blocks);
}

}  // namespace

void run_launch(const LaunchRequest& request) {
  if (t_lane != nullptr) {  // correct CUDA (dynamic parallelism) that needs a GPU
    stop_at_unsupported_feature("dynamic parallelism (a kernel launched from device code)",
                                request.config.site_file, request.config.site_line);
  }
  ensure_fault_handlers_installed();
  const LaunchConfig& config = request.config;
  GridJob job;
  job.request = &request;
  job.block_count = static_cast<std::uint64_t>(config.grid.x) * config.grid.y * config.grid.z;
  job.threads_per_block = config.block.x * config.block.y * config.block.z;
  job.dynamic_shared_bytes = config.dynamic_shared_bytes;
  job.shared_limit = total_shared_limit(request.kernel);
  const RuntimeSettings& settings = runtime_settings();
  job.exited_threads_release_barriers = settings.allow_exited_at_barrier;
  if (settings.seeded) choose_orders(job, settings);
  LaunchCounters counters;  // this launch's figures only
  if (g_locked.counters_enabled) job.counters = &counters;
  complete_kernel_writes();  // the earlier kernels' writes to managed memory land first
  land_copies_to_device();   // and the copies to the device: the kernel reads their bytes
  device_heap_reuse_freed();  // what kernels freed before this launch may be malloc'd again
  if (g_locked.access_hooks_enabled) race_check_begin_launch();
  open_device_sources(true);
  WorkerPool::instance().run(job);  // opens the device allocations it touches
  close_kernel_openings();           // (memory/device_pages.hpp)
  open_device_sources(false);
  defer_managed_writes_of_launch(request);  // the host sees them at a synchronization
  if (job.counters != nullptr) report_launch_counters(request.kernel_name, counters);
  if (job.is_aborted()) record_error(static_cast<cudaError_t>(job.abort_error.load()));
}

void check_pointer_argument(const char* kernel_name, int position, const void* pointer) {
  if (pointer == nullptr) return;
  if (runtime_settings().allow_host_pointers) return;
  const auto address = reinterpret_cast<std::uintptr_t>(pointer);
  MemoryRange range;
  const bool known = MemoryRegistry::instance().find(address, range);
  if (known && range.kind != MemoryKind::freed && address <= range.end) return;

  ReportText text;
  text.add("parlab-sim: kernel ").add(kernel_name).add(" was launched with argument ");
  text.add_decimal(static_cast<std::uint64_t>(position)).add(" = ").add_hex(address);
  if (known && range.kind == MemoryKind::freed) {
    text.add(",\n  which points into device memory already released by cudaFree (use after "
             "free).");
  } else {
    text.add(",\n  which is not device memory: a host pointer (stack, malloc, new, "
             "std::vector) cannot be\n  dereferenced by a kernel on a GPU (illegal address). "
             "Allocate with cudaMalloc (or\n  cudaMallocManaged) and copy the data with "
             "cudaMemcpy.");
  }
  finish_report(text, kExitMemoryFault);
}

}  // namespace parlab_sim::detail
