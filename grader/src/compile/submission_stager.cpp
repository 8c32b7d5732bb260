#include "compile/submission_stager.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

namespace fs = std::filesystem;

namespace parlab::grader {
namespace {

// One record per file from the reading helper to the grader, over a pipe.
enum class Kind : std::int32_t {
  ok,            // chunks follow, then a trailer record
  missing,
  symlink,
  not_regular,   // `detail` holds the st_mode file type bits
  too_big,       // `size` holds the size seen
  unreadable,    // `detail` holds errno
  no_privileges  // the helper could not take the folder owner's ids; `detail` holds errno
};

struct Record {
  Kind kind;
  std::int32_t detail;
  std::uint64_t size;
};

[[noreturn]] void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

// --- the helper side: async-signal-safe calls only (it is a fork of a possibly
// multi-threaded grader), no allocation.

bool write_all(int fd, const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

bool send(int out, Kind kind, std::int32_t detail = 0, std::uint64_t size = 0) {
  Record r{kind, detail, size};
  return write_all(out, &r, sizeof r);
}

char g_buffer[64 * 1024];

// Streams one file: Record{ok}, chunks of [u32 length][bytes], a zero length, then a
// trailer Record (ok, too_big or unreadable). Refusals are a single record.
bool send_file(int out, int dir, const char* name, std::uint64_t max_bytes) {
  // O_PATH|O_NOFOLLOW opens the link itself, so a link can be named as such; nothing
  // is read and a device node is not opened.
  int probe = ::openat(dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
  if (probe < 0) return send(out, errno == ENOENT ? Kind::missing : Kind::unreadable, errno);
  struct stat seen {};
  const int stat_ok = ::fstat(probe, &seen);
  ::close(probe);
  if (stat_ok != 0) return send(out, Kind::unreadable, errno);
  if (S_ISLNK(seen.st_mode)) return send(out, Kind::symlink);
  if (!S_ISREG(seen.st_mode)) return send(out, Kind::not_regular, seen.st_mode & S_IFMT);
  if (static_cast<std::uint64_t>(seen.st_size) > max_bytes)
    return send(out, Kind::too_big, 0, static_cast<std::uint64_t>(seen.st_size));
  // Opened for reading with the helper's (the owner's) permissions; O_NONBLOCK so a
  // file swapped for a FIFO in between cannot hang, and the same inode is required.
  int fd = ::openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return send(out, errno == ELOOP ? Kind::symlink : Kind::unreadable, errno);
  struct stat opened {};
  if (::fstat(fd, &opened) != 0 || opened.st_ino != seen.st_ino || opened.st_dev != seen.st_dev ||
      !S_ISREG(opened.st_mode)) {
    ::close(fd);
    return send(out, Kind::not_regular, opened.st_mode & S_IFMT);
  }
  if (!send(out, Kind::ok)) return false;
  std::uint64_t total = 0;
  Record trailer{Kind::ok, 0, 0};
  for (;;) {
    ssize_t n = ::read(fd, g_buffer, sizeof g_buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      trailer = {Kind::unreadable, errno, 0};
      break;
    }
    if (n == 0) break;
    total += static_cast<std::uint64_t>(n);
    if (total > max_bytes) {  // it grew while we read
      trailer = {Kind::too_big, 0, total};
      break;
    }
    const std::uint32_t length = static_cast<std::uint32_t>(n);
    if (!write_all(out, &length, sizeof length) || !write_all(out, g_buffer, length)) {
      ::close(fd);
      return false;
    }
  }
  ::close(fd);
  const std::uint32_t end = 0;
  return write_all(out, &end, sizeof end) && write_all(out, &trailer, sizeof trailer);
}

[[noreturn]] void helper_main(int out, int dir, uid_t owner_uid, gid_t owner_gid,
                              const std::vector<const char*>& names, std::uint64_t max_bytes) {
  if (::geteuid() == 0 && owner_uid != 0) {
    // Raw syscalls: glibc's wrappers synchronise threads the fork did not copy.
    if (::syscall(SYS_setgroups, 0, nullptr) != 0 ||
        ::syscall(SYS_setresgid, owner_gid, owner_gid, owner_gid) != 0 ||
        ::syscall(SYS_setresuid, owner_uid, owner_uid, owner_uid) != 0 || ::geteuid() == 0) {
      send(out, Kind::no_privileges, errno);
      ::_exit(1);
    }
  }
  for (const char* name : names) {
    if (!send_file(out, dir, name, max_bytes)) ::_exit(1);
  }
  ::_exit(0);
}

// --- the grader side.

void read_exact(int fd, void* data, std::size_t n) {
  char* p = static_cast<char*>(data);
  while (n > 0) {
    ssize_t r = ::read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) throw_errno("reading from the staging helper");
    if (r == 0) throw std::system_error(EPIPE, std::generic_category(), "staging helper stopped early");
    p += r;
    n -= static_cast<std::size_t>(r);
  }
}

std::string file_type_words(std::int32_t type) {
  switch (type) {
    case S_IFIFO: return "a FIFO (named pipe)";
    case S_IFDIR: return "a directory";
    case S_IFCHR: return "a character device";
    case S_IFBLK: return "a block device";
    case S_IFSOCK: return "a socket";
    default: return "not a regular file";
  }
}

std::string mib(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  return text;
}

std::string refusal(const std::string& name, const Record& r, const StagingLimits& limits) {
  switch (r.kind) {
    case Kind::missing: return name + " not found";
    case Kind::symlink:
      return name + " is a symbolic link; submit the file itself (links are not followed)";
    case Kind::not_regular:
      return name + " is " + file_type_words(r.detail) + ", not a regular file; submit the file itself";
    case Kind::too_big:
      return name + " is larger than the " + mib(limits.max_file_bytes) +
             " allowed for one submitted file (" + mib(r.size) + ")";
    case Kind::unreadable:
      return name + " cannot be read with the permissions of the submission folder's owner (" +
             std::strerror(r.detail) + ")";
    case Kind::no_privileges:
      return "the grader could not take the submission folder owner's identity to read it (" +
             std::string(std::strerror(r.detail)) + ")";
    case Kind::ok: break;
  }
  return name + ": unexpected staging state";
}

void write_staged(const fs::path& file, const std::string& bytes) {
  int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) throw_errno("creating " + file.string());
  const bool written = write_all(fd, bytes.data(), bytes.size());
  ::close(fd);
  if (!written) throw_errno("writing " + file.string());
}

std::vector<std::string> optional_names(int dir, const std::vector<std::string>& required,
                                        bool (*want_optional)(const std::string&)) {
  std::vector<std::string> names;
  int listing_fd = ::dup(dir);
  if (listing_fd < 0) throw_errno("dup");
  DIR* listing = ::fdopendir(listing_fd);
  if (listing == nullptr) {
    ::close(listing_fd);
    throw_errno("listing the submission folder");
  }
  while (const dirent* entry = ::readdir(listing)) {
    std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    if (want_optional(name) && std::find(required.begin(), required.end(), name) == required.end())
      names.push_back(name);
  }
  ::closedir(listing);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

StagingResult stage_submission_files(const fs::path& submission,
                                     const std::vector<std::string>& required,
                                     bool (*want_optional)(const std::string& name),
                                     const fs::path& stage, const StagingLimits& limits) {
  StagingResult result;
  fs::remove_all(stage);
  fs::create_directories(stage);

  int dir = ::open(submission.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) {
    result.refused_file = submission.filename().string();
    result.reason = "cannot open the submission folder " + submission.string() + " (" +
                    std::strerror(errno) + ")";
    return result;
  }
  struct stat owner {};
  if (::fstat(dir, &owner) != 0) {
    ::close(dir);
    throw_errno("stat " + submission.string());
  }
  std::vector<std::string> names = required;
  for (std::string& name : optional_names(dir, required, want_optional)) names.push_back(name);
  std::vector<const char*> c_names;
  for (const std::string& name : names) c_names.push_back(name.c_str());

  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    ::close(dir);
    throw_errno("pipe");
  }
  const pid_t helper = ::fork();
  if (helper < 0) {
    ::close(dir);
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    throw_errno("fork");
  }
  if (helper == 0) {
    ::close(pipe_fds[0]);
    helper_main(pipe_fds[1], dir, owner.st_uid, owner.st_gid, c_names, limits.max_file_bytes);
  }
  ::close(pipe_fds[1]);
  ::close(dir);
  const int in = pipe_fds[0];
  auto finish = [&] {
    ::close(in);  // the helper sees EPIPE if it is still writing
    int status = 0;
    while (::waitpid(helper, &status, 0) < 0 && errno == EINTR) {
    }
  };
  std::uint64_t total = 0;
  try {
    for (const std::string& name : names) {
      Record r{};
      read_exact(in, &r, sizeof r);
      if (r.kind != Kind::ok) {
        result.refused_file = r.kind == Kind::no_privileges ? submission.string() : name;
        result.reason = refusal(name, r, limits);
        result.missing = r.kind == Kind::missing;
        break;
      }
      std::string bytes;
      for (;;) {
        std::uint32_t length = 0;
        read_exact(in, &length, sizeof length);
        if (length == 0) break;
        if (length > sizeof g_buffer) throw std::runtime_error("staging helper: bad chunk");
        const std::size_t at = bytes.size();
        bytes.resize(at + length);
        read_exact(in, bytes.data() + at, length);
      }
      read_exact(in, &r, sizeof r);
      if (r.kind != Kind::ok) {
        result.refused_file = name;
        result.reason = refusal(name, r, limits);
        break;
      }
      total += bytes.size();
      if (total > limits.max_total_bytes) {
        result.refused_file = name;
        result.reason = "the submission's files together are larger than the " +
                        mib(limits.max_total_bytes) + " allowed (reached at " + name + ")";
        break;
      }
      write_staged(stage / name, bytes);
      result.staged.push_back(name);
    }
  } catch (...) {
    finish();
    throw;
  }
  finish();
  return result;
}

}  // namespace parlab::grader
