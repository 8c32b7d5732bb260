#pragma once
// GPU timing for lab drivers: CUDA events around the student's work (device time, not
// host launch overhead), the L2 cache flushed before every sample so each sample
// starts cold, warm-up calls excluded. Transfers are timed the same way and recorded
// as named phases, so the report shows transfer time and kernel time separately.
// A sample ends only when the whole device is idle, so work the student moved to
// another stream (a non-blocking one never orders with the default stream) is timed;
// persisting L2 lines are dropped before each sample, so a cudaAccessPolicyWindow set in
// an earlier call cannot keep the input warm. tests/unit/gpu_timing checks both against
// a virtual-clock runtime (docs/gpu.md, "Timing on the GPU").
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>

#include "parlab/harness/driver.hpp"
#include "parlab/harness/gpu/cuda_check.hpp"
#include "parlab/harness/gpu/fresh_inputs.hpp"

namespace parlab::harness::gpu {

// Elapsed device time between two events, in seconds.
class EventTimer {
 public:
  EventTimer() {
    PARLAB_CUDA_CHECK(cudaEventCreate(&start_));
    PARLAB_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  void start() { PARLAB_CUDA_CHECK(cudaEventRecord(start_)); }
  double stop_seconds() {
    PARLAB_CUDA_CHECK(cudaEventRecord(stop_));
    PARLAB_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    PARLAB_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return static_cast<double>(ms) / 1e3;
  }

 private:
  cudaEvent_t start_{};
  cudaEvent_t stop_{};
};

// Makes the next sample start cold: drops persisting L2 lines and sets their limit to 0
// (on devices that keep them), then overwrites a buffer twice the size of the L2 cache,
// evicting whatever the previous sample left there. No upper bound on the buffer: a
// smaller flush would leave part of a large L2 warm.
// In the simulator (drivers built with PARLAB_SIM_DRIVER) there is no cache to make cold
// and no time to measure: the flush only waits for the device, as on a GPU. The buffer
// there was host memory written twice per sample, about a third of a small test's run.
class L2Flusher {
 public:
  L2Flusher(const L2Flusher&) = delete;
  L2Flusher& operator=(const L2Flusher&) = delete;
#if defined(PARLAB_SIM_DRIVER)
  L2Flusher() = default;
  void flush() { PARLAB_CUDA_CHECK(cudaDeviceSynchronize()); }
#else
  L2Flusher() {
    int device = 0;
    PARLAB_CUDA_CHECK(cudaGetDevice(&device));
    cudaDeviceProp prop{};
    PARLAB_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    bytes_ = std::max<std::size_t>(2 * static_cast<std::size_t>(prop.l2CacheSize),
                                   std::size_t{1} << 20);
    keeps_persisting_lines_ = prop.persistingL2CacheMaxSize > 0;
    PARLAB_CUDA_CHECK(cudaMalloc(&buffer_, bytes_));
  }
  ~L2Flusher() { cudaFree(buffer_); }

  void flush() {
    if (keeps_persisting_lines_) {
      PARLAB_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0));
      PARLAB_CUDA_CHECK(cudaCtxResetPersistingL2Cache());
    }
    PARLAB_CUDA_CHECK(cudaMemset(buffer_, ++value_ & 0xFF, bytes_));
    PARLAB_CUDA_CHECK(cudaDeviceSynchronize());
  }

 private:
  void* buffer_ = nullptr;
  std::size_t bytes_ = 0;
  bool keeps_persisting_lines_ = false;
  int value_ = 0;
#endif
};

// Runs `work` (the student's call, which launches kernels) ctx.warmup() + repeat times.
// Before each call `prepare` runs untimed (poison the outputs); each measured call is
// one sample of device time, ended after a device-wide synchronization (inside
// check_student_call, which also names the student's function if a kernel failed).
// With `fresh` (a driver that can make new inputs), every timed call after a first
// call gets new input content and its output is checked, untimed; a last untimed call
// on the dataset's own content leaves the output the grader compares.
template <class Prepare, class Work>
void gpu_timed(TaskContext& ctx, const char* function, Prepare&& prepare, Work&& work,
               const FreshInputs* fresh = nullptr) {
  L2Flusher flusher;
  EventTimer timer;
  for (int i = 0; i < ctx.warmup(); ++i) {
    prepare();
    work();
    check_student_call(function);
  }
  // One call alone (a correctness run) has no earlier result to replay.
  const bool refreshed = fresh != nullptr && ctx.warmup() + ctx.repeat() > 1;
  for (int i = 0; i < ctx.repeat(); ++i) {
    if (refreshed) fresh->refresh(unpredictable_seed());
    prepare();
    flusher.flush();
    timer.start();
    work();
    check_student_call(function);  // every stream of the device, not only the default one
    ctx.add_sample(timer.stop_seconds());
    if (refreshed) {
      const std::string differed = fresh->check();
      if (!differed.empty()) throw StaleResultError(function, i, differed);
    }
  }
  if (refreshed) {
    fresh->restore();
    prepare();
    work();
    check_student_call(function);
  }
}

// Times one transfer (or any device work) and records it as phase `name`.
template <class Work>
void timed_phase(TaskContext& ctx, const std::string& name, Work&& work) {
  EventTimer timer;
  timer.start();
  work();
  ctx.add_phase(name, timer.stop_seconds());
}

}  // namespace parlab::harness::gpu
