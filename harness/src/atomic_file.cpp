// Temp file (+ fsync) + rename. The temp file lives in the target's directory because
// rename(2) is only atomic within one file system.
#include "parlab/harness/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

namespace parlab::harness {
namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& step, int error) {
  throw std::runtime_error("cannot write '" + path.string() + "': " + step + ": " +
                           std::strerror(error));
}

// pid + a process-wide counter: unique across concurrent graders and threads.
std::filesystem::path temp_path_for(const std::filesystem::path& path) {
  static std::atomic<unsigned long long> counter{0};
  const std::string name = "." + path.filename().string() + ".tmp." + std::to_string(::getpid()) +
                           "." + std::to_string(counter.fetch_add(1));
  return path.parent_path() / name;
}

// Closes the descriptor and removes the temp file unless the write was committed.
class TempFile {
 public:
  explicit TempFile(std::filesystem::path path) : path_(std::move(path)) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    open_errno_ = fd_ < 0 ? errno : 0;
    created_ = fd_ >= 0;
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (created_ && !committed_) ::unlink(path_.c_str());
  }

  int fd() const { return fd_; }
  int open_errno() const { return open_errno_; }
  const std::filesystem::path& path() const { return path_; }

  // Returns 0 or the errno of the failed close.
  int close() {
    const int rc = ::close(fd_);
    fd_ = -1;
    return rc == 0 ? 0 : errno;
  }
  void commit() { committed_ = true; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  int open_errno_ = 0;
  bool created_ = false;  // never unlink a file this object did not create
  bool committed_ = false;
};

// Returns 0 or the errno of the failed write; retries short writes and EINTR.
int write_all(int fd, std::string_view content) {
  while (!content.empty()) {
    const ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    content.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

// Makes the rename itself durable. Some file systems refuse fsync on a directory;
// the data is already safe then, so that is not an error.
void sync_directory(const std::filesystem::path& dir) {
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

void write_file_atomically(const std::filesystem::path& path, std::string_view content,
                           Durability durability) {
  if (path.filename().empty()) fail(path, "not a file name", EINVAL);
  const bool on_disk = durability == Durability::disk;
  TempFile temp(temp_path_for(path));
  if (temp.fd() < 0) {
    fail(path, "creating temp file '" + temp.path().string() + "'", temp.open_errno());
  }
  if (const int err = write_all(temp.fd(), content)) fail(path, "writing temp file", err);
  if (on_disk && ::fsync(temp.fd()) != 0) {
    const int err = errno;
    fail(path, "syncing temp file", err);
  }
  if (const int err = temp.close()) fail(path, "closing temp file", err);
  if (::rename(temp.path().c_str(), path.c_str()) != 0) {
    const int err = errno;
    fail(path, "renaming temp file", err);
  }
  temp.commit();
  if (on_disk) sync_directory(path.parent_path());
}

}  // namespace parlab::harness
