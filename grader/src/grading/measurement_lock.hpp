#pragma once
// Timings of concurrent gradings must never disturb each other (DESIGN invariant 2).
// Every grading holds its machine's measurement lock *shared* while it builds and runs
// correctness tests, and *exclusive* while it measures performance, so a measurement
// runs alone: no other grading's compiler or test runs beside it. The locks are
// flock(2) locks on files in one machine-wide folder, so separate `grade` processes
// (a batch's workers, two instructors, Slurm tasks sharing a node) coordinate; the
// kernel drops them when a process dies, even by kill -9.
//
// GPU labs also lock their GPU: shared for correctness runs, exclusive for GPU
// measurements, so gradings on different GPUs measure at the same time.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "process/unique_fd.hpp"

namespace parlab::grader {

// A readers-writer lock across processes. flock alone lets a stream of shared holders
// starve an exclusive waiter; a second "gate" file gives the writer priority: readers
// pass through the gate before taking the lock, the writer holds the gate while it waits.
class ProcessRwLock {
 public:
  // Opens (creating when needed) `<dir>/<name>.lock` and `<dir>/<name>.gate`.
  // Throws EnvironmentError naming the file when it cannot be opened.
  ProcessRwLock(const std::filesystem::path& dir, const std::string& name);

  void lock_shared();     // blocks while a writer holds or waits for the lock
  void lock_exclusive();  // blocks until no one else holds it
  void unlock();          // no-op when not held

 private:
  process::UniqueFd lock_;
  process::UniqueFd gate_;
  std::filesystem::path lock_path_;
};

class MeasurementLock {
 public:
  // `gpu`: the GPU index this grading uses (GPU labs), none for CPU labs. `log` gets a
  // line when the lock has to be waited for.
  MeasurementLock(const std::filesystem::path& dir, std::optional<int> gpu,
                  std::function<void(const std::string&)> log = {});

  void share();           // building and correctness: many gradings at once
  void take_exclusive();  // performance: alone on this machine (GPU labs: on this GPU)
  void release();

  // $PARLAB_LOCK_DIR, else /tmp/parlab-locks: one folder per machine (node-local /tmp).
  static std::filesystem::path default_dir();
  // For GPU labs: the first index in CUDA_VISIBLE_DEVICES (0 when unset or not a number).
  static int visible_gpu();

 private:
  void wait_note(const char* what) const;

  ProcessRwLock machine_;
  std::optional<ProcessRwLock> gpu_;
  std::function<void(const std::string&)> log_;
};

}  // namespace parlab::grader
