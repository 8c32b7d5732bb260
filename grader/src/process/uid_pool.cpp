#include "process/uid_pool.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

#include "process/uid_leftovers.hpp"
#include "process/uid_queue.hpp"

namespace parlab::grader::process {
namespace {

namespace fs = std::filesystem;

unsigned long parse_number(const std::string& text, const std::string& whole) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 9)
    throw std::invalid_argument("uid range must look like 60500-60627, not '" + whole + "'");
  return std::stoul(text);
}

// The lock folder must not be writable by anyone but root: otherwise a sandboxed
// uid could pre-create (or hold) lock files and steal another grading's uid.
void ensure_lock_dir(const fs::path& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  struct stat info {};
  if (::lstat(dir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
    throw std::runtime_error("the uid pool's lock folder " + dir.string() +
                             " cannot be created: " + std::strerror(errno));
  if (info.st_uid != ::geteuid() || (info.st_mode & (S_IWGRP | S_IWOTH)) != 0)
    throw std::runtime_error("the uid pool's lock folder " + dir.string() +
                             " must be owned by the grader's user and writable by no one "
                             "else (chmod 755)");
}

std::string pool_range(const UidPoolConfig& pool) {
  return std::to_string(pool.first) + "-" + std::to_string(pool.first + pool.count - 1);
}

// Up to `count` free uids of the pool now (call under the PoolMutex); fewer when the
// pool has fewer free, and then the caller lets them all go again.
std::vector<UidLease> take_free_uids(const UidPoolConfig& pool, unsigned count) {
  std::vector<UidLease> leases;
  for (unsigned i = 0; i < pool.count && leases.size() < count; ++i) {
    const uid_t uid = pool.first + i;
    const fs::path file = pool.lock_dir / std::to_string(uid);
    UniqueFd fd(::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600));
    if (!fd.valid())
      throw std::runtime_error("cannot open the uid lock " + file.string() + ": " +
                               std::strerror(errno));
    if (::flock(fd.get(), LOCK_EX | LOCK_NB) == 0) {
      // Free in this lock folder, but running processes: another grader that keeps its
      // locks elsewhere (in a chroot, or with another PARLAB_UID_POOL_DIR) uses it, and
      // the leftover sweep of either would kill the other's runs. Not ours to take.
      if (!processes_of(uid).empty()) continue;
      leases.emplace_back(uid, std::move(fd));
      continue;
    }
    if (errno != EWOULDBLOCK)
      throw std::runtime_error("cannot lock " + file.string() + ": " + std::strerror(errno));
  }
  return leases;
}

}  // namespace

UidPoolConfig parse_uid_range(const std::string& text, UidPoolConfig base) {
  auto dash = text.find('-');
  if (dash == std::string::npos)
    throw std::invalid_argument("uid range must look like 60500-60627, not '" + text + "'");
  unsigned long first = parse_number(text.substr(0, dash), text);
  unsigned long last = parse_number(text.substr(dash + 1), text);
  if (first < 1000 || last < first)
    throw std::invalid_argument("uid range '" + text +
                                "' must start at 1000 or above and not end before it starts");
  base.first = static_cast<uid_t>(first);
  base.count = static_cast<unsigned>(last - first + 1);
  return base;
}

unsigned default_uid_pool_count() {
  return std::max(128u, 4 * std::thread::hardware_concurrency());
}

UidPoolConfig uid_pool_config_from_environment() {
  UidPoolConfig pool;
  pool.wait_seconds = 600;
  if (const char* wait = std::getenv("PARLAB_UID_WAIT_S"); wait && *wait) pool.wait_seconds = std::atof(wait);
  if (const char* range = std::getenv("PARLAB_UID_POOL"); range && *range)
    pool = parse_uid_range(range, pool);
  if (const char* dir = std::getenv("PARLAB_UID_POOL_DIR"); dir && *dir) pool.lock_dir = dir;
  return pool;
}

UidLease lease_uid(const UidPoolConfig& pool) { return std::move(lease_uids(pool, 1).front()); }

std::vector<UidLease> lease_uids(const UidPoolConfig& pool, unsigned count) {
  ensure_lock_dir(pool.lock_dir);
  if (count > pool.count)
    throw std::runtime_error("a grading needs " + std::to_string(count) + " sandbox uids but the pool " +
                             pool_range(pool) + " has " + std::to_string(pool.count) +
                             "; set PARLAB_UID_POOL to a larger range of unused uids");
  // A full pool is other gradings of this machine (a batch's jobs, other batches,
  // students at the same time): one of them ends soon, so wait in line for its uids
  // rather than fail. All at once or none: a grading never holds one uid while it
  // waits for the next (two batches would each hold one and wait forever).
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration<double>(std::max(0.0, pool.wait_seconds));
  std::optional<QueueTicket> ticket;
  while (true) {
    {
      PoolMutex mutex(pool.lock_dir);
      if (!ticket) ticket.emplace(pool.lock_dir);
      if (ticket->first_in_line()) {
        std::vector<UidLease> leases = take_free_uids(pool, count);
        if (leases.size() == count) return leases;
      }
    }
    if (std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  throw std::runtime_error("all " + std::to_string(pool.count) + " sandbox uids (" + pool_range(pool) +
                           ") are in use by other gradings; wait, or set PARLAB_UID_POOL to a "
                           "larger range of unused uids");
}

std::optional<UidLease> try_lease_uid(const UidPoolConfig& pool) {
  ensure_lock_dir(pool.lock_dir);
  PoolMutex mutex(pool.lock_dir);
  QueueTicket ticket(pool.lock_dir);  // never ahead of a grading already waiting
  if (!ticket.first_in_line()) return std::nullopt;
  std::vector<UidLease> leases = take_free_uids(pool, 1);
  if (leases.empty()) return std::nullopt;
  return std::move(leases.front());
}

}  // namespace parlab::grader::process
