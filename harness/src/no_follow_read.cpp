#include "parlab/harness/no_follow_read.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace parlab::harness {
namespace {

bool is_single_component(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos;
}

std::string describe_mode(mode_t mode) {
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a regular file";
}

// Why openat(O_NOFOLLOW) failed, in terms of what is there.
std::string open_failure(int dir_fd, const std::string& name, int error) {
  struct stat st {};
  if (::fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode) &&
      !S_ISDIR(st.st_mode)) {
    return name + " is " + describe_mode(st.st_mode) + " (only regular files are read)";
  }
  if (error == ENOENT) return name + " is missing";
  return "cannot open " + name + ": " + std::strerror(error);
}

}  // namespace

DirFd& DirFd::operator=(DirFd&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

DirFd::~DirFd() {
  if (fd_ >= 0) ::close(fd_);
}

DirFd open_subdir_no_follow(int parent_fd, const std::string& name) {
  if (!is_single_component(name)) throw UnsafeFileError("'" + name + "' is not a folder name");
  int fd = ::openat(parent_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    struct stat st {};
    if (::fstatat(parent_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(st.st_mode)) {
      throw UnsafeFileError("folder " + name + " is " + describe_mode(st.st_mode) +
                            " (a real folder was expected)");
    }
    if (error == ENOENT) throw UnsafeFileError("folder " + name + " is missing");
    throw UnsafeFileError("cannot open folder " + name + ": " + std::strerror(error));
  }
  return DirFd(fd);
}

DirFd open_dir_path_no_follow(const std::string& path) {
  if (path.empty()) throw UnsafeFileError("empty folder path");
  DirFd current(::open(path[0] == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!current.valid()) throw UnsafeFileError("cannot open the root of " + path);
  std::size_t start = 0;
  while (start < path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    const std::string part = path.substr(start, end - start);
    start = end + 1;
    if (part.empty() || part == ".") continue;
    if (part == "..") throw UnsafeFileError("'..' in folder path " + path);
    current = open_subdir_no_follow(current.get(), part);
  }
  return current;
}

FileKind inspect_file_at(int dir_fd, const std::string& name, std::uint64_t* size) {
  struct stat st {};
  if (!is_single_component(name)) return FileKind::other;
  if (::fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    return errno == ENOENT ? FileKind::missing : FileKind::other;
  }
  if (!S_ISREG(st.st_mode) || st.st_nlink != 1) return FileKind::other;
  if (size != nullptr) *size = static_cast<std::uint64_t>(st.st_size);
  return FileKind::regular;
}

std::string read_file_at(int dir_fd, const std::string& name, std::uint64_t max_bytes) {
  if (!is_single_component(name)) throw UnsafeFileError("'" + name + "' is not a file name");
  // O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever.
  int fd = ::openat(dir_fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw UnsafeFileError(open_failure(dir_fd, name, errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw UnsafeFileError(name + " is " + describe_mode(st.st_mode) +
                          " (only regular files are read)");
  }
  if (st.st_nlink != 1) {
    ::close(fd);
    throw UnsafeFileError(name + " has " + std::to_string(st.st_nlink) +
                          " hard links (a file linked from elsewhere is not read)");
  }
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > max_bytes) {
    ::close(fd);
    throw UnsafeFileError(name + " is " + std::to_string(size) + " bytes, over the limit of " +
                          std::to_string(max_bytes));
  }
  std::string data(size, '\0');
  std::size_t got = 0;
  while (got < size) {
    ssize_t n = ::read(fd, data.data() + got, size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (got != size) throw UnsafeFileError("cannot read " + name + " completely");
  return data;
}

}  // namespace parlab::harness
