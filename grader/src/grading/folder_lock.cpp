#include "grading/folder_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>

#include <cerrno>
#include <cstring>

#include "core/errors.hpp"

namespace parlab::grader {

FolderLock::FolderLock(const std::filesystem::path& lock_file,
                       const std::function<void(const std::string&)>& notice,
                       const std::string& why_waiting) {
  std::filesystem::create_directories(lock_file.parent_path());
  fd_ = process::UniqueFd(
      ::open(lock_file.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600));
  if (!fd_.valid()) {
    throw EnvironmentError("cannot open the lock " + lock_file.string() + ": " +
                           std::strerror(errno));
  }
  if (::flock(fd_.get(), LOCK_EX | LOCK_NB) == 0) return;
  if (notice) notice("waiting: " + why_waiting);
  while (::flock(fd_.get(), LOCK_EX) != 0) {
    if (errno != EINTR) {
      throw EnvironmentError("flock on " + lock_file.string() + " failed: " + std::strerror(errno));
    }
  }
}

}  // namespace parlab::grader
