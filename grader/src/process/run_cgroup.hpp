#pragma once
// A control group per run, where the machine offers one: memory (anonymous memory,
// memfd/shmem, tmpfs files and page cache of every process of the run together),
// process count and CPU accounting for the whole process tree, and a reliable way
// to kill every process of the run, including ones that left its process group.
//
// cgroup v1 (hybrid hosts): a folder in each of the memory, pids and cpuacct
// hierarchies under `parlab/`. cgroup v2: a folder under a delegated subtree
// (PARLAB_CGROUP_V2, default /sys/fs/cgroup/parlab) whose cgroup.controllers
// offers memory and pids. Neither: the runner falls back to rlimits and says so.
#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace parlab::grader::process {

struct CgroupSupport {
  enum class Kind { none, v1, v2 };
  Kind kind = Kind::none;
  std::vector<std::filesystem::path> bases;  // v1: memory, pids, cpuacct; v2: one
  std::string problem;                       // why none, for the report
  // "cgroup v1 memory+pids+cpuacct", "cgroup v2 memory+pids+cpu", or "no cgroup (...)".
  std::string describe() const;
};

// Looks once per process (cached): needs root, or a v2 subtree delegated to us.
const CgroupSupport& detect_cgroup_support();

struct CgroupUsage {
  std::uint64_t memory_peak_bytes = 0;  // 0: unknown
  std::uint64_t oom_kills = 0;          // processes the memory limit killed
  double cpu_seconds = 0;               // user + system of every process of the run
};

class RunCgroup {
 public:
  // Creates the run's folder(s) and sets the limits (0 = none). Throws
  // std::runtime_error when the cgroup cannot be created.
  RunCgroup(const CgroupSupport& support, std::uint64_t memory_bytes, std::uint64_t max_pids);
  ~RunCgroup();  // kills what is left and removes the folders
  RunCgroup(const RunCgroup&) = delete;
  RunCgroup& operator=(const RunCgroup&) = delete;

  // cgroup.procs files; the child writes "0" to each before exec (child_setup).
  const std::vector<std::string>& procs_files() const { return procs_files_; }

  // SIGKILL to every process still in the run's cgroup, until it is empty. Returns
  // the pids it signalled (the caller reaps those that are its children).
  std::vector<int> kill_all();

  CgroupUsage usage() const;

 private:
  CgroupSupport::Kind kind_;
  std::vector<std::filesystem::path> dirs_;  // as bases: memory, pids, cpuacct (v1) or one (v2)
  std::vector<std::string> procs_files_;
};

}  // namespace parlab::grader::process
