#pragma once
// The folder a grading's submission runs write in, bounded: a private tmpfs of a
// fixed size mounted by the grader (root only), so a program that fills the disk
// meets ENOSPC at the quota instead of filling the machine, and removed with
// everything in it when the grading ends (unless kept for debugging).
//
// Without root there is no mount: the folder is a plain one, each file is still
// bounded by RLIMIT_FSIZE, and describe() says so.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace parlab::grader::process {

class RunArea {
 public:
  // Creates `dir` (removing a stale mount or folder left by a crashed grader) and
  // mounts the quota on it when possible. `keep`: leave the folder after the
  // grading, and mount no tmpfs (its contents would vanish with it).
  RunArea(std::filesystem::path dir, std::uint64_t quota_bytes, bool keep);
  ~RunArea();  // unmounts and removes, unless kept
  RunArea(const RunArea&) = delete;
  RunArea& operator=(const RunArea&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  bool quota_enforced() const { return mounted_; }
  // "disk quota 1 GiB (tmpfs)" or "no disk quota (...)", for the report.
  std::string describe() const;

 private:
  std::filesystem::path dir_;
  std::uint64_t quota_bytes_;
  bool keep_;
  bool mounted_ = false;
  std::string problem_;
};

// Moves this process into a mount namespace of its own (root only; a no-op that
// returns false elsewhere), with every mount private: the run areas it mounts then
// disappear with it, even when it is killed with SIGKILL, instead of staying mounted
// (and holding up to their quota of memory) until a later grading sweeps them. Its
// children (bubblewrap, the programs) inherit the namespace and see the mounts. Call
// it before any thread starts.
bool give_this_process_private_mounts();

// The size of the tmpfs `dir` lies on when it is (nearly) full, for a run that
// ended there; empty when it is not a tmpfs or has room left.
std::optional<std::uint64_t> full_tmpfs_quota(const std::filesystem::path& dir);

}  // namespace parlab::grader::process
