#include "process/uid_queue.hpp"

#include <fcntl.h>
#include <sys/file.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

namespace parlab::grader::process {
namespace {

namespace fs = std::filesystem;

UniqueFd open_lock_file(const fs::path& file) {
  UniqueFd fd(::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600));
  if (!fd.valid())
    throw std::runtime_error("cannot open the uid pool's lock " + file.string() + ": " +
                             std::strerror(errno));
  return fd;
}

// The next ticket number, kept in `queue/next` (read and written under the PoolMutex).
unsigned long long next_number(const fs::path& queue) {
  const fs::path counter = queue / "next";
  unsigned long long number = 0;
  if (std::ifstream in(counter); in) in >> number;
  std::ofstream out(counter, std::ios::trunc);
  out << number + 1 << "\n";
  if (!out)
    throw std::runtime_error("cannot write the uid pool's line counter " + counter.string());
  return number;
}

bool is_ticket_name(const std::string& name) {
  return !name.empty() && name.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

PoolMutex::PoolMutex(const fs::path& lock_dir) : fd_(open_lock_file(lock_dir / "pool.lock")) {
  while (::flock(fd_.get(), LOCK_EX) != 0) {
    if (errno != EINTR)
      throw std::runtime_error("cannot lock " + (lock_dir / "pool.lock").string() + ": " +
                               std::strerror(errno));
  }
}

QueueTicket::QueueTicket(const fs::path& lock_dir) {
  const fs::path queue = lock_dir / "queue";
  std::error_code error;
  fs::create_directory(queue, error);
  number_ = next_number(queue);
  file_ = queue / std::to_string(number_);
  fd_ = open_lock_file(file_);
  if (::flock(fd_.get(), LOCK_EX | LOCK_NB) != 0)
    throw std::runtime_error("cannot lock the uid pool's ticket " + file_.string() + ": " +
                             std::strerror(errno));
}

QueueTicket::~QueueTicket() {
  if (!fd_.valid()) return;  // moved from
  std::error_code ignored;
  fs::remove(file_, ignored);
}

bool QueueTicket::first_in_line() const {
  bool first = true;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(file_.parent_path(), error)) {
    const std::string name = entry.path().filename().string();
    if (!is_ticket_name(name) || std::stoull(name) >= number_) continue;
    UniqueFd other(::open(entry.path().c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW));
    if (!other.valid()) continue;  // gone meanwhile
    if (::flock(other.get(), LOCK_EX | LOCK_NB) == 0) {
      std::error_code ignored;  // its waiter died: out of the line
      fs::remove(entry.path(), ignored);
    } else {
      first = false;
    }
  }
  return first;
}

}  // namespace parlab::grader::process
