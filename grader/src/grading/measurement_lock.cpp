#include "grading/measurement_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "cli/errors.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

// World-writable and sticky like /tmp: graders running as different users share it.
void make_lock_dir(const fs::path& dir) {
  std::error_code ec;
  if (fs::is_directory(dir)) return;
  fs::create_directories(dir, ec);
  if (ec && !fs::is_directory(dir)) {
    throw EnvironmentError("cannot create the measurement lock folder " + dir.string() + ": " +
                           ec.message() + " (set PARLAB_LOCK_DIR to a writable folder)");
  }
  ::chmod(dir.c_str(), 01777);
}

process::UniqueFd open_lock_file(const fs::path& path) {
  process::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666));
  if (!fd.valid()) {
    throw EnvironmentError("cannot open the measurement lock " + path.string() + ": " +
                           std::strerror(errno) + " (set PARLAB_LOCK_DIR to a writable folder)");
  }
  ::fchmod(fd.get(), 0666);  // the umask must not lock other users out (fails harmlessly if not ours)
  return fd;
}

// Returns false when `block` is false and the lock is held elsewhere.
bool flock_retry(int fd, int op, bool block) {
  for (;;) {
    if (::flock(fd, op | (block ? 0 : LOCK_NB)) == 0) return true;
    if (errno == EINTR) continue;
    if (errno == EWOULDBLOCK && !block) return false;
    throw EnvironmentError(std::string("flock on a measurement lock failed: ") + std::strerror(errno));
  }
}

}  // namespace

ProcessRwLock::ProcessRwLock(const fs::path& dir, const std::string& name) {
  make_lock_dir(dir);
  lock_path_ = dir / (name + ".lock");
  lock_ = open_lock_file(lock_path_);
  gate_ = open_lock_file(dir / (name + ".gate"));
}

void ProcessRwLock::lock_shared() {
  unlock();
  // Passing the gate waits for any writer that is waiting or holding the lock.
  flock_retry(gate_.get(), LOCK_EX, true);
  flock_retry(gate_.get(), LOCK_UN, true);
  flock_retry(lock_.get(), LOCK_SH, true);
}

void ProcessRwLock::lock_exclusive() {
  unlock();
  flock_retry(gate_.get(), LOCK_EX, true);  // new readers now queue at the gate
  flock_retry(lock_.get(), LOCK_EX, true);  // current readers finish their phase
  flock_retry(gate_.get(), LOCK_UN, true);
}

void ProcessRwLock::unlock() { ::flock(lock_.get(), LOCK_UN); }

MeasurementLock::MeasurementLock(const fs::path& dir, std::optional<int> gpu,
                                 std::function<void(const std::string&)> log)
    : machine_(dir, "machine"), log_(std::move(log)) {
  if (gpu) gpu_.emplace(dir, "gpu-" + std::to_string(*gpu));
}

void MeasurementLock::wait_note(const char* what) const {
  if (log_) log_(std::string("taking the measurement lock (") + what + ")");
}

void MeasurementLock::share() {
  machine_.lock_shared();
  if (gpu_) gpu_->lock_shared();
}

void MeasurementLock::take_exclusive() {
  release();
  wait_note(gpu_ ? "this GPU's measurements run one at a time"
                 : "performance is measured with nothing else running");
  if (gpu_) {
    // Machine first, then GPU, always in that order: no lock cycle between gradings.
    machine_.lock_shared();
    gpu_->lock_exclusive();
  } else {
    machine_.lock_exclusive();
  }
}

void MeasurementLock::release() {
  if (gpu_) gpu_->unlock();
  machine_.unlock();
}

fs::path MeasurementLock::default_dir() {
  if (const char* env = std::getenv("PARLAB_LOCK_DIR"); env && *env) return env;
  return "/tmp/parlab-locks";
}

int MeasurementLock::visible_gpu() {
  const char* env = std::getenv("CUDA_VISIBLE_DEVICES");
  if (!env) return 0;
  char* end = nullptr;
  long v = std::strtol(env, &end, 10);
  return (end != env && v >= 0) ? static_cast<int>(v) : 0;
}

}  // namespace parlab::grader
