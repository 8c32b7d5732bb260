#include "batch/output_lock.hpp"
#include "util/clock_text.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <ctime>
#include <fstream>
#include <sstream>

#include "core/errors.hpp"

namespace fs = std::filesystem;

namespace parlab::grader::batch {
namespace {

constexpr const char* kLockName = ".batch.lock";
constexpr const char* kGuardName = ".batch.lock-guard";  // serializes Slurm tasks' check-and-take
constexpr const char* kSubmissionPrefix = ".batch.slurm-";

process::UniqueFd open_lock_file(const fs::path& file) {
  process::UniqueFd fd(::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644));
  if (!fd.valid()) throw UsageError("cannot open the lock file " + file.string() + " (is the output folder writable?)");
  return fd;
}

std::string this_process() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return "pid " + std::to_string(::getpid()) + " on " + host + " since " + now_iso8601();
}

void describe_holder(int fd, const std::string& text) {
  if (::ftruncate(fd, 0) == 0) {
    [[maybe_unused]] ssize_t n = ::pwrite(fd, text.data(), text.size(), 0);
  }
}

[[noreturn]] void refuse(const fs::path& out, const std::string& holder) {
  throw UsageError("another grade batch is writing to " + out.string() +
                   (holder.empty() ? std::string() : " (" + holder + ")") +
                   "; wait for it to end or use another --out (lock " + (out / kLockName).string() + ")");
}

}  // namespace

std::string output_lock_holder(const fs::path& out) {
  std::ifstream in(out / kLockName);
  std::string line;
  std::getline(in, line);
  return line;
}

OutputLock lock_output_folder(const fs::path& out, const std::string& slurm_submission) {
  fs::create_directories(out);
  OutputLock lock;
  process::UniqueFd main = open_lock_file(out / kLockName);
  if (slurm_submission.empty()) {
    if (::flock(main.get(), LOCK_EX | LOCK_NB) != 0) refuse(out, output_lock_holder(out));
    describe_holder(main.get(), "held by grade batch, " + this_process());
    lock.fds_.push_back(std::move(main));
    return lock;
  }
  // Check and take under the guard, so two submissions' tasks cannot both pass.
  process::UniqueFd guard = open_lock_file(out / kGuardName);
  ::flock(guard.get(), LOCK_EX);
  if (::flock(main.get(), LOCK_SH | LOCK_NB) != 0) refuse(out, output_lock_holder(out));
  const std::string own = kSubmissionPrefix + slurm_submission + ".lock";
  for (const fs::directory_entry& e : fs::directory_iterator(out)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(kSubmissionPrefix, 0) != 0 || name == own) continue;
    process::UniqueFd other = open_lock_file(e.path());
    if (::flock(other.get(), LOCK_EX | LOCK_NB) != 0) {
      refuse(out, "held by the tasks of Slurm submission " +
                      name.substr(std::string(kSubmissionPrefix).size(), name.size() - std::string(kSubmissionPrefix).size() - 5));
    }
    std::error_code ec;
    fs::remove(e.path(), ec);  // nobody holds it: a finished submission's
  }
  process::UniqueFd mine = open_lock_file(out / own);
  ::flock(mine.get(), LOCK_SH);
  describe_holder(main.get(), "held by the tasks of Slurm submission " + slurm_submission + " (see " +
                                  (out / "slurm" / slurm_submission).string() + ")");
  lock.fds_.push_back(std::move(main));
  lock.fds_.push_back(std::move(mine));
  return lock;
}

}  // namespace parlab::grader::batch
