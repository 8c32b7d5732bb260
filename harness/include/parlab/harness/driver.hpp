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
      auto result = work();
      samples_.push_back(timer.stop_seconds());
      if (i + 1 >= repeat_) return result;
    }
  }
  template <class Work>
  auto timed(Work&& work) -> decltype(work()) {
    return timed(std::forward<Work>(work), [] {});
  }

  int warmup() const { return warmup_; }
  const std::vector<double>& samples() const { return samples_; }

 private:
  std::filesystem::path dataset_dir_;
  Params params_;
  OutputWriter& out_;
  int warmup_;
  int repeat_;
  std::vector<double> samples_;
};

struct Task {
  std::string name;
  std::string description;
  std::function<void(TaskContext&)> run;
};

int run_driver(int argc, char** argv, std::span<const Task> tasks);

}  // namespace parlab::harness
