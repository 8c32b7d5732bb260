#include "grading/measurement_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "core/errors.hpp"

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

// A root grader's lock folder is root's alone: a run (a pool uid) that could open a
// lock file could hold it with flock (read access is enough) and stall every other
// grading's measurement, and one that could write holders/ could lie to waiters.
// A non-root grader shares a world-writable folder with other users' graders; its
// runs are its own user anyway (nothing holds for a non-root grader).
bool root_grader() { return ::geteuid() == 0; }

void check_root_only(const fs::path& dir) {
  struct stat info {};
  if (::lstat(dir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
    throw EnvironmentError("the measurement lock folder " + dir.string() + " is not a folder");
  if (info.st_uid != 0 || (info.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    throw EnvironmentError("the measurement lock folder " + dir.string() + " is " +
                           (info.st_uid != 0 ? "owned by uid " + std::to_string(info.st_uid)
                                             : std::string("writable by other users")) +
                           ": a submission's run could hold the lock or forge its holders; as root "
                           "it must be root's alone (chown root, chmod 700, or set PARLAB_LOCK_DIR)");
  }
}

void make_lock_dir(const fs::path& dir) {
  std::error_code ec;
  const bool existed = fs::is_directory(dir);
  if (!existed) fs::create_directories(dir, ec);
  if (ec && !fs::is_directory(dir)) {
    throw EnvironmentError("cannot create the measurement lock folder " + dir.string() + ": " +
                           ec.message() + " (set PARLAB_LOCK_DIR to a writable folder)");
  }
  if (!root_grader()) {
    if (!existed) ::chmod(dir.c_str(), 01777);  // graders running as different users share it
    return;
  }
  if (!existed) ::chmod(dir.c_str(), 0700);
  check_root_only(dir);
}

process::UniqueFd open_lock_file(const fs::path& path) {
  const mode_t mode = root_grader() ? 0600 : 0666;
  process::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, mode));
  if (!fd.valid()) {
    throw EnvironmentError("cannot open the measurement lock " + path.string() + ": " +
                           std::strerror(errno) + " (set PARLAB_LOCK_DIR to a writable folder)");
  }
  // Root: a file left by an older, world-writable folder is taken back. Otherwise the
  // umask must not lock other users out (fails harmlessly if not ours).
  struct stat info {};
  if (root_grader() && (::fstat(fd.get(), &info) != 0 || info.st_uid != 0) && ::fchown(fd.get(), 0, 0) != 0) {
    throw EnvironmentError("cannot take back the measurement lock " + path.string() + ": " +
                           std::strerror(errno));
  }
  ::fchmod(fd.get(), mode);
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

bool ProcessRwLock::try_lock_shared() {
  unlock();
  if (!flock_retry(gate_.get(), LOCK_EX, false)) return false;
  flock_retry(gate_.get(), LOCK_UN, true);
  return flock_retry(lock_.get(), LOCK_SH, false);
}

bool ProcessRwLock::try_lock_exclusive() {
  unlock();
  if (!flock_retry(gate_.get(), LOCK_EX, false)) return false;
  const bool got = flock_retry(lock_.get(), LOCK_EX, false);
  flock_retry(gate_.get(), LOCK_UN, true);
  return got;
}

void ProcessRwLock::unlock() { ::flock(lock_.get(), LOCK_UN); }

MeasurementLock::MeasurementLock(const fs::path& dir, std::optional<int> gpu,
                                 std::function<void(const std::string&)> notice,
                                 std::string holder)
    : dir_(dir), machine_(dir, "machine"), notice_(std::move(notice)), holder_(std::move(holder)) {
  if (gpu) gpu_.emplace(dir, "gpu-" + std::to_string(*gpu));
}

MeasurementLock::~MeasurementLock() { forget_holding(); }

void MeasurementLock::announce_wait(const char* what) const {
  if (!notice_) return;
  std::vector<std::string> holders = describe_holders(dir_);
  std::string line = std::string("waiting for the measurement lock (") + what + ")";
  if (holders.empty()) {
    line += ": held by a grading that left no description";
  } else {
    line += ": held by ";
    for (std::size_t i = 0; i < holders.size(); ++i) line += (i ? "; " : "") + holders[i];
  }
  notice_(line);
}

void MeasurementLock::share() {
  if (!machine_.try_lock_shared() || (gpu_ && !gpu_->try_lock_shared())) {
    announce_wait("a performance measurement runs alone; building and testing wait for it");
    machine_.lock_shared();
    if (gpu_) gpu_->lock_shared();
  }
  record_holding("building and testing");
}

void MeasurementLock::take_exclusive() {
  release();
  // Machine first, then GPU, always in that order: no lock cycle between gradings.
  const bool at_once = gpu_ ? machine_.try_lock_shared() && gpu_->try_lock_exclusive()
                            : machine_.try_lock_exclusive();
  if (!at_once) {
    announce_wait(gpu_ ? "this GPU's measurements run one at a time"
                       : "performance is measured with nothing else running");
    if (gpu_) {
      machine_.lock_shared();
      gpu_->lock_exclusive();
    } else {
      machine_.lock_exclusive();
    }
  }
  record_holding("measuring");
}

void MeasurementLock::release() {
  if (gpu_) gpu_->unlock();
  machine_.unlock();
  forget_holding();
}

fs::path MeasurementLock::default_dir() {
  if (const char* env = std::getenv("PARLAB_LOCK_DIR"); env && *env) return env;
  return root_grader() ? "/run/parlab/locks" : "/tmp/parlab-locks";
}

int MeasurementLock::visible_gpu() {
  const char* env = std::getenv("CUDA_VISIBLE_DEVICES");
  if (!env) return 0;
  char* end = nullptr;
  long v = std::strtol(env, &end, 10);
  return (end != env && v >= 0) ? static_cast<int>(v) : 0;
}

}  // namespace parlab::grader

namespace parlab::grader {
namespace {

constexpr std::size_t kHolderLineCap = 512;

fs::path holders_dir(const fs::path& dir) { return dir / "holders"; }

std::string clock_text(std::time_t t) {
  char buf[32];
  std::strftime(buf, sizeof buf, "%H:%M:%S UTC", std::gmtime(&t));
  return buf;
}

// Descriptions come from other users' graders: one line, printable, capped.
std::string printable(const std::string& text) {
  std::string out;
  for (char c : text.substr(0, kHolderLineCap)) {
    out += (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) ? c : '?';
  }
  return out;
}

// A line about pid N counts only when N's user wrote it: another user's "pid 1 ...
// measuring" is a forgery (a shared folder of non-root graders).
// (The status file's real uid: /proc/N itself shows root for a non-dumpable process.)
bool written_by_its_process(int fd, long pid) {
  struct stat file {};
  if (::fstat(fd, &file) != 0) return false;
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("Uid:", 0) == 0) return std::strtoul(line.c_str() + 4, nullptr, 10) == file.st_uid;
  }
  return false;
}

}  // namespace

void MeasurementLock::record_holding(const char* mode) {
  const fs::path dir = holders_dir(dir_);
  std::error_code ec;
  fs::create_directories(dir, ec);
  ::chmod(dir.c_str(), root_grader() ? 0700 : 01777);
  const fs::path file = dir / std::to_string(::getpid());
  int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, root_grader() ? 0600 : 0644);
  if (fd < 0) return;  // only a courtesy to waiters
  const std::string line = std::to_string(std::time(nullptr)) + "\t" + mode + "\t" + holder_;
  [[maybe_unused]] ssize_t n = ::write(fd, line.data(), line.size());
  ::close(fd);
}

void MeasurementLock::forget_holding() {
  std::error_code ec;
  fs::remove(holders_dir(dir_) / std::to_string(::getpid()), ec);
}

std::vector<std::string> MeasurementLock::describe_holders(const fs::path& dir, std::size_t max) {
  std::vector<std::pair<long, std::string>> found;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(holders_dir(dir), ec)) {
    const std::string name = entry.path().filename().string();
    char* end = nullptr;
    const long pid = std::strtol(name.c_str(), &end, 10);
    if (pid <= 0 || *end != '\0' || pid == ::getpid()) continue;
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {  // gone: its line goes too
      std::error_code ignored;
      fs::remove(entry.path(), ignored);
      continue;
    }
    int fd = ::open(entry.path().c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) continue;
    if (!written_by_its_process(fd, pid)) {
      ::close(fd);
      continue;
    }
    char buf[kHolderLineCap + 1] = {};
    ssize_t n = ::read(fd, buf, kHolderLineCap);
    ::close(fd);
    if (n <= 0) continue;
    std::string line(buf, static_cast<std::size_t>(n));
    const auto tab1 = line.find('\t');
    const auto tab2 = line.find('\t', tab1 == std::string::npos ? 0 : tab1 + 1);
    if (tab1 == std::string::npos || tab2 == std::string::npos) continue;
    const long since = std::strtol(line.substr(0, tab1).c_str(), nullptr, 10);
    const long ago = static_cast<long>(std::time(nullptr)) - since;
    found.emplace_back(since, "pid " + std::to_string(pid) + ": " +
                                  printable(line.substr(tab2 + 1)) + ", " +
                                  printable(line.substr(tab1 + 1, tab2 - tab1 - 1)) + " since " +
                                  clock_text(static_cast<std::time_t>(since)) + " (" +
                                  std::to_string(std::max(0L, ago)) + " s ago)");
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  for (const auto& [since, text] : found) {
    if (out.size() >= max) break;
    out.push_back(text);
  }
  return out;
}

}  // namespace parlab::grader
