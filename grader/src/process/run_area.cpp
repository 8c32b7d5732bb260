#include "process/run_area.hpp"

#include <linux/magic.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "process/human_units.hpp"

namespace parlab::grader::process {
namespace {

namespace fs = std::filesystem;

// Less room than this left on the run's tmpfs counts as full (a filler stops a
// little short of the last block: metadata, a partial write).
constexpr std::uint64_t kFullMargin = 1 << 20;

bool is_mount_point(const fs::path& dir) {
  struct stat self {}, parent {};
  if (::lstat(dir.c_str(), &self) != 0 || ::lstat(dir.parent_path().c_str(), &parent) != 0)
    return false;
  return self.st_dev != parent.st_dev;
}

}  // namespace

RunArea::RunArea(fs::path dir, std::uint64_t quota_bytes, bool keep)
    : dir_(std::move(dir)), quota_bytes_(quota_bytes), keep_(keep) {
  fs::create_directories(dir_.parent_path());
  if (is_mount_point(dir_)) ::umount2(dir_.c_str(), MNT_DETACH);  // a crashed grader's
  fs::remove_all(dir_);
  fs::create_directory(dir_);
  ::chmod(dir_.c_str(), 0711);
  if (keep_) {
    problem_ = "kept for debugging (--keep-runs)";
  } else if (quota_bytes_ == 0) {
    problem_ = "turned off";
  } else if (::geteuid() != 0) {
    problem_ = "the grader is not root; each file is still limited by RLIMIT_FSIZE";
  } else {
    // 0711: a run's uid may enter its own folder but not list the others.
    std::string options = "size=" + std::to_string(quota_bytes_) + ",mode=0711,nr_inodes=65536";
    if (::mount("tmpfs", dir_.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, options.c_str()) == 0) {
      mounted_ = true;
    } else {
      problem_ = std::string("cannot mount a tmpfs: ") + std::strerror(errno);
    }
  }
}

RunArea::~RunArea() {
  // Kept folders go back to root alone: the uids are leased again by later gradings.
  if (keep_) {
    ::chmod(dir_.c_str(), 0700);
    return;
  }
  std::error_code ignored;
  if (mounted_) ::umount2(dir_.c_str(), MNT_DETACH);  // frees the memory at once
  fs::remove_all(dir_, ignored);
}

std::string RunArea::describe() const {
  if (mounted_) return "disk quota " + format_bytes(quota_bytes_) + " (tmpfs)";
  return "no disk quota (" + problem_ + ")";
}

bool give_this_process_private_mounts() {
  if (::geteuid() != 0) return false;
  if (::unshare(CLONE_NEWNS) != 0) return false;
  // Without this, mounts made here would still propagate to the shared namespace.
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return false;
  return true;
}

std::optional<std::uint64_t> full_tmpfs_quota(const fs::path& dir) {
  struct statfs info {};
  if (::statfs(dir.c_str(), &info) != 0 || info.f_type != TMPFS_MAGIC) return std::nullopt;
  const auto block = static_cast<std::uint64_t>(info.f_bsize);
  const bool no_inodes = info.f_files > 0 && info.f_ffree == 0;
  if (static_cast<std::uint64_t>(info.f_bavail) * block >= kFullMargin && !no_inodes)
    return std::nullopt;
  return static_cast<std::uint64_t>(info.f_blocks) * block;
}

}  // namespace parlab::grader::process
