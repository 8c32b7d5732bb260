#pragma once
// The waiting line in front of the uid pool. A grading needs two uids (its own and its
// reference's); taking them one at a time let two batches on a small pool each hold
// one and wait forever for a second. Here every grading takes all the uids it needs at
// once, under one lock, and waiters are served first come, first served: a waiter
// holds a numbered ticket (a file it keeps flock-ed) and only the oldest living ticket
// may take uids, so a grading of a large batch cannot be overtaken forever by others.
// A waiter that crashes drops its flock with the process; the next one to look at the
// line removes its ticket, so a dead waiter never blocks the line.
#include <filesystem>

#include "process/unique_fd.hpp"

namespace parlab::grader::process {

// The pool's lock (`pool.lock` in the lock folder), held while the line is looked at
// and uids are taken; released when destroyed.
class PoolMutex {
 public:
  explicit PoolMutex(const std::filesystem::path& lock_dir);

 private:
  UniqueFd fd_;
};

// A place in the line (`queue/<number>` in the lock folder). Made under the PoolMutex.
class QueueTicket {
 public:
  explicit QueueTicket(const std::filesystem::path& lock_dir);
  QueueTicket(QueueTicket&&) = default;
  ~QueueTicket();
  // Whether no living ticket is older (call under the PoolMutex); removes dead ones.
  bool first_in_line() const;

 private:
  std::filesystem::path file_;
  unsigned long long number_ = 0;
  UniqueFd fd_;
};

}  // namespace parlab::grader::process
