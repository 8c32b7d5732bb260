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
// measurements and for a test marked gpu_alone (lab.toml), so gradings on different
// GPUs measure at the same time.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

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
  bool try_lock_shared();     // false (nothing held) when lock_shared would block
  bool try_lock_exclusive();  // false (nothing held) when lock_exclusive would block
  void unlock();          // no-op when not held

 private:
  process::UniqueFd lock_;
  process::UniqueFd gate_;
  std::filesystem::path lock_path_;
};

// Who holds a lock, and since when: each holder leaves a line in <dir>/holders/<pid>
// (removed on release; a dead holder's line is ignored), so a grading that has to
// wait can say for whom.
class MeasurementLock {
 public:
  // `gpu`: the GPU index this grading uses (GPU labs), none for CPU labs. `notice` gets
  // a line naming the holders when the lock has to be waited for; `holder` describes
  // this grading to others (e.g. "grade lab01 /home/ann/lab01").
  MeasurementLock(const std::filesystem::path& dir, std::optional<int> gpu,
                  std::function<void(const std::string&)> notice = {}, std::string holder = {});
  ~MeasurementLock();
  MeasurementLock(const MeasurementLock&) = delete;
  MeasurementLock& operator=(const MeasurementLock&) = delete;

  void share();           // building and correctness: many gradings at once
  void take_exclusive();  // performance: alone on this machine (GPU labs: on this GPU)
  void release();

  // The live holders' lines in `dir`, oldest first, at most `max` ("pid 12: grade
  // lab01 /x, measuring since 08:12:03 UTC (45 s ago)").
  static std::vector<std::string> describe_holders(const std::filesystem::path& dir,
                                                   std::size_t max = 4);

  // $PARLAB_LOCK_DIR, else one folder per machine: /run/parlab/locks as root (root's
  // alone: the runs may not open its files), /tmp/parlab-locks otherwise (shared with
  // other users' graders).
  static std::filesystem::path default_dir();
  // For GPU labs: the first index in CUDA_VISIBLE_DEVICES (0 when unset or not a number).
  static int visible_gpu();

 private:
  void announce_wait(const char* what) const;
  void record_holding(const char* mode);
  void forget_holding();

  std::filesystem::path dir_;
  ProcessRwLock machine_;
  std::optional<ProcessRwLock> gpu_;
  std::function<void(const std::string&)> notice_;
  std::string holder_;
};

}  // namespace parlab::grader
