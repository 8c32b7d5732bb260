#pragma once
// A pool of unprivileged user ids, one leased per sandboxed identity of a grading
// (isolate and DOMjudge do the same). A lease is an exclusive flock on a file per
// uid under a root-owned folder, held for the lease's life: concurrent `grade`
// processes never share a uid, and a grader that crashes releases its uids because
// the kernel drops the lock with the process. Only meaningful when the grader is
// root (only root can switch to another uid).
//
// Why: RLIMIT_NPROC counts every process of a real uid system-wide, and a uid can
// read the files of its own earlier runs. With one uid per grading identity, one
// submission that holds its process limit cannot starve a classmate's grading, and
// no run can read another grading's (or the reference's) files.
#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "process/unique_fd.hpp"

namespace parlab::grader::process {

// The default pool's size: 128 uids, or 4 per core where that is more (a grading
// leases two, and a batch grades one student per core at a time by default).
unsigned default_uid_pool_count();

struct UidPoolConfig {
  uid_t first = 60500;  // uids first .. first + count - 1; each also its own gid
  unsigned count = default_uid_pool_count();
  std::filesystem::path lock_dir = "/run/parlab/uids";
  // Every uid leased: wait up to this long for one to be released (0: fail at once).
  double wait_seconds = 0;
};

// The group every reference run has (the gid just below the pool, 60499 by
// default): the instructor's files are opened to it alone (grading/reference_seal),
// so a submission's uid, whose gid is its own, can neither run nor read them.
inline gid_t reference_gid(const UidPoolConfig& pool) { return static_cast<gid_t>(pool.first - 1); }

// The supplementary group of every run of a submission (the gid two below the pool,
// 60498 by default). The instructor's files are given this group with no group
// permission (grading/reference_seal): a process in the group is refused by its group
// bits before "others" are looked at, so the submission can neither run nor read them,
// while the reference's runs and a student grading as themselves (not in the group)
// keep the others' permission. A process cannot leave a group without CAP_SETGID.
inline gid_t submissions_gid(const UidPoolConfig& pool) { return static_cast<gid_t>(pool.first - 2); }

// The defaults, overridden by PARLAB_UID_POOL ("60500-60627") and
// PARLAB_UID_POOL_DIR (the lock folder), with a 10-minute wait for a free uid
// (PARLAB_UID_WAIT_S). Throws std::invalid_argument on a malformed range.
UidPoolConfig uid_pool_config_from_environment();

// "60500-60627" -> first and count. Throws std::invalid_argument.
UidPoolConfig parse_uid_range(const std::string& text, UidPoolConfig base = {});

class UidLease {
 public:
  UidLease(uid_t uid, UniqueFd lock) : uid_(uid), lock_(std::move(lock)) {}
  uid_t uid() const { return uid_; }
  gid_t gid() const { return static_cast<gid_t>(uid_); }

 private:
  uid_t uid_;
  UniqueFd lock_;  // the flock; released when closed
};

// The first free uid of the pool, waiting up to pool.wait_seconds while every uid is
// leased. Creates the lock folder (root-owned, 0755) if missing. Throws
// std::runtime_error when the folder cannot be used or no uid came free in time (the
// message says how to enlarge the pool).
UidLease lease_uid(const UidPoolConfig& pool);

// `count` uids at once (a grading's own and its reference's), or none: a grading
// never holds some while it waits for the rest. Waiters, from every grader process
// sharing the lock folder, are served in the order they came (uid_queue.hpp), waiting
// up to pool.wait_seconds in all. Throws like lease_uid, and when count exceeds the pool.
std::vector<UidLease> lease_uids(const UidPoolConfig& pool, unsigned count);

// The first free uid now, or nothing when every uid is leased or a grading is already
// waiting in line for uids (no wait).
std::optional<UidLease> try_lease_uid(const UidPoolConfig& pool);

}  // namespace parlab::grader::process
