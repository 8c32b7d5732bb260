#pragma once
// The grader-owned `main` of every lab executable. A lab's driver.cpp lists its tasks
// in a table and calls run_driver; the student's code is only ever called from a task.
//
// Command line (what the grader passes):
//   <exe> --task NAME --dataset DIR --out DIR [--warmup N] [--repeat N] [--param k=v]...
//   <exe> --list-tasks
// Exit codes: 0 ok; 1 task error (message in status.json); 2 usage error;
// 86 out of memory (std::bad_alloc escaped the student's code).
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "parlab/harness/arrays.hpp"
#include "parlab/harness/params.hpp"
#include "parlab/harness/timer.hpp"

namespace parlab::harness {

inline constexpr int kExitOutOfMemory = 86;

class TaskContext {
 public:
  TaskContext(std::filesystem::path dataset_dir, Params params, OutputWriter& out, int warmup,
              int repeat)
      : dataset_dir_(std::move(dataset_dir)),
        params_(std::move(params)),
        out_(out),
        warmup_(warmup),
        repeat_(repeat) {}

  const std::filesystem::path& dataset_dir() const { return dataset_dir_; }
  const Params& params() const { return params_; }
  OutputWriter& out() { return out_; }

  // Runs `work` warmup + repeat times, timing each measured call with the host clock,
  // and returns the last call's result. `prepare` runs untimed before every call (use
  // it to poison output buffers so unwritten elements fail the comparison).
  template <class Work, class Prepare>
  auto timed(Work&& work, Prepare&& prepare) -> decltype(work()) {
    for (int i = 0; i < warmup_; ++i) {
      prepare();
      (void)work();
    }
    HostTimer timer;
    for (int i = 0;; ++i) {
      prepare();
      timer.start();
      if constexpr (std::is_void_v<decltype(work())>) {
        work();
        samples_.push_back(timer.stop_seconds());
        if (i + 1 >= repeat_) return;
      } else {
        auto result = work();
        samples_.push_back(timer.stop_seconds());
        if (i + 1 >= repeat_) return result;
      }
    }
  }
  template <class Work>
  auto timed(Work&& work) -> decltype(work()) {
    return timed(std::forward<Work>(work), [] {});
  }

  // For drivers that time their own way (CUDA events, gpu/gpu_timing.hpp): one
  // measured repetition, and named phases timed apart (e.g. "host_to_device").
  void add_sample(double seconds) { samples_.push_back(seconds); }
  void add_phase(const std::string& name, double seconds) { phases_[name].push_back(seconds); }
  // What one measured call must move and compute at least (the report turns it into
  // GB/s or GFLOP/s and a fraction of the device's measured peak).
  void set_work(double bytes, double flops) { work_ = {bytes, flops}; }
  WorkAmount work() const { return work_; }
  // What one sample measures, when not the kernels alone (e.g. "round_trip").
  void set_sample_label(std::string label) { sample_label_ = std::move(label); }
  const std::string& sample_label() const { return sample_label_; }

  int warmup() const { return warmup_; }
  int repeat() const { return repeat_; }
  const std::vector<double>& samples() const { return samples_; }
  const PhaseSamples& phases() const { return phases_; }

 private:
  std::filesystem::path dataset_dir_;
  Params params_;
  OutputWriter& out_;
  int warmup_;
  int repeat_;
  std::vector<double> samples_;
  PhaseSamples phases_;
  WorkAmount work_;
  std::string sample_label_;
};

struct Task {
  std::string name;
  std::string description;
  std::function<void(TaskContext&)> run;
};

int run_driver(int argc, char** argv, std::span<const Task> tasks);

// Adds a task beyond the driver's own table: reference solutions use it for their
// extra variants (e.g. a register-blocked SGEMM used as a performance baseline).
// Call it from a static initializer; returns true so it can initialize a constant.
// A name that clashes with a driver task is an error when the program runs.
bool register_extra_task(Task task);

}  // namespace parlab::harness
