#pragma once
// Reading files that an untrusted process may have planted (DESIGN invariant 1):
// relative to a directory descriptor the reader opened itself, never following a
// symbolic link, never blocking on a FIFO or device, regular files with one link
// only, and never more than a stated number of bytes. Used by the grader for every
// file a child writes (status, timings, manifest, arrays).
#include <cstdint>
#include <stdexcept>
#include <string>

namespace parlab::harness {

// Why a file could not be read, in words fit for a student's report.
class UnsafeFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An open directory (O_DIRECTORY | O_NOFOLLOW), closed on destruction.
class DirFd {
 public:
  DirFd() = default;
  explicit DirFd(int fd) : fd_(fd) {}
  DirFd(DirFd&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  DirFd& operator=(DirFd&& other) noexcept;
  DirFd(const DirFd&) = delete;
  DirFd& operator=(const DirFd&) = delete;
  ~DirFd();
  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// Opens `name` (one path component, no '/') inside `parent` as a directory without
// following a link. Throws UnsafeFileError naming what was found instead.
DirFd open_subdir_no_follow(int parent_fd, const std::string& name);

// Opens an absolute or relative path whose every component is a real directory
// (each opened with O_NOFOLLOW from the previous one). Throws UnsafeFileError.
DirFd open_dir_path_no_follow(const std::string& path);

enum class FileKind { missing, regular, other };

// What `name` is inside `dir_fd`, without following a link or opening it. For a
// regular file with exactly one link, *size receives its size.
FileKind inspect_file_at(int dir_fd, const std::string& name, std::uint64_t* size = nullptr);

// The whole content of regular file `name` inside `dir_fd`. Throws UnsafeFileError
// when it is missing, a link, not a regular file, hard-linked elsewhere, or larger
// than `max_bytes` (checked before reading).
std::string read_file_at(int dir_fd, const std::string& name, std::uint64_t max_bytes);

}  // namespace parlab::harness
