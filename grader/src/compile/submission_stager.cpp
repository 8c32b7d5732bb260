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
  no_privileges, // the helper could not take the folder owner's ids; `detail` holds errno
  // The walk's records, each followed by [u32 length][path bytes]:
  entry,         // a name that is not a folder to walk; `detail` holds its sub-folder depth
  folder_link,   // a symbolic link to a folder
  too_many,      // the walk looked at more names than allowed (the path is where it stopped)
  walk_end       // no path follows
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
bool send_leaf(int out, int dir, const char* name, std::uint64_t max_bytes) {
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

char g_path[1024];

// Opens the folder that holds `path` (relative, '/'-separated, no "..": names the walk
// read) one component at a time, never following a link: O_PATH|O_DIRECTORY|O_NOFOLLOW
// relative to the folder before it. Returns the folder's descriptor (or `dir` itself
// for a top-level file, not to be closed) and points `leaf` at the file's own name;
// -1 with errno set when a component is missing, a link (ELOOP/ENOTDIR) or too long.
int open_parent(int dir, const char* path, const char** leaf) {
  std::size_t length = 0;
  while (path[length] != '\0') ++length;
  if (length >= sizeof g_path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  std::memcpy(g_path, path, length + 1);
  int current = dir;
  char* component = g_path;
  for (char* slash; (slash = std::strchr(component, '/')) != nullptr; component = slash + 1) {
    *slash = '\0';
    const int next = ::openat(current, component, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    const int saved = errno;
    if (current != dir) ::close(current);
    if (next < 0) {
      errno = saved == ENOTDIR ? ELOOP : saved;
      return -1;
    }
    current = next;
  }
  *leaf = component;
  return current;
}

bool send_file(int out, int dir, const char* path, std::uint64_t max_bytes) {
  const char* name = nullptr;
  const int parent = open_parent(dir, path, &name);
  if (parent < 0) {
    return send(out, errno == ENOENT ? Kind::missing : errno == ELOOP ? Kind::symlink : Kind::unreadable,
                errno);
  }
  const bool sent = send_leaf(out, parent, name, max_bytes);
  if (parent != dir) ::close(parent);
  return sent;
}

// --- the walk, in the helper: every name in the folder tree, depth first. Folders are
// opened relative to their parent's descriptor with O_DIRECTORY|O_NOFOLLOW (a folder
// swapped for a link in between is not entered); hidden folders and __MACOSX (a zip
// made on a Mac) are not walked.

constexpr int kMaxWalkDepth = 15;
char g_dents[kMaxWalkDepth + 1][8192];
char g_walk_path[1024];

struct Walk {
  int out;
  int max_depth;  // the deepest folder level entered
  int budget;     // names left to look at
};

struct LinuxDirent64 {
  std::uint64_t d_ino;
  std::int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[1];
};

bool send_path(int out, Kind kind, std::int32_t detail, std::size_t length) {
  const std::uint32_t n = static_cast<std::uint32_t>(length);
  return send(out, kind, detail) && write_all(out, &n, sizeof n) && write_all(out, g_walk_path, n);
}

// False when the walk must stop (the pipe broke, or too many names).
bool walk(Walk& w, int fd, std::size_t length, int depth) {
  for (;;) {
    const long n = ::syscall(SYS_getdents64, fd, g_dents[depth], sizeof g_dents[depth]);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;  // an unreadable folder holds nothing the owner could submit
    for (long at = 0; at < n;) {
      const auto* d = reinterpret_cast<const LinuxDirent64*>(g_dents[depth] + at);
      at += d->d_reclen;
      const char* name = d->d_name;
      if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0) continue;
      const std::size_t name_length = std::strlen(name);
      if (length + name_length + 2 > sizeof g_walk_path) continue;  // cannot be staged
      std::memcpy(g_walk_path + length, name, name_length);
      const std::size_t path_length = length + name_length;
      if (--w.budget < 0) {
        send_path(w.out, Kind::too_many, 0, path_length);
        return false;
      }
      unsigned type = d->d_type;
      struct stat seen {};
      if (type == DT_UNKNOWN && ::fstatat(fd, name, &seen, AT_SYMLINK_NOFOLLOW) == 0) {
        type = IFTODT(seen.st_mode);
      }
      if (type == DT_DIR) {
        // Named too, so a folder named like a header is refused as a folder.
        if (!send_path(w.out, Kind::entry, depth, path_length)) return false;
        if (name[0] == '.' || std::strcmp(name, "__MACOSX") == 0 || depth + 1 > w.max_depth) continue;
        const int sub = ::openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0) {
          if ((errno == ELOOP || errno == ENOTDIR) && !send_path(w.out, Kind::folder_link, 0, path_length))
            return false;
          continue;
        }
        g_walk_path[path_length] = '/';
        const bool go_on = walk(w, sub, path_length + 1, depth + 1);
        ::close(sub);
        if (!go_on) return false;
      } else if (type == DT_LNK && name[0] != '.' && ::fstatat(fd, name, &seen, 0) == 0 &&
                 S_ISDIR(seen.st_mode)) {
        // stat follows the link as the owner, only to tell a folder link by its type.
        if (!send_path(w.out, Kind::folder_link, 0, path_length)) return false;
      } else if (!send_path(w.out, Kind::entry, depth, path_length)) {
        return false;
      }
    }
  }
}

// Takes the submission folder owner's ids when the grader is root. In the helper only.
void become_owner(int out, uid_t owner_uid, gid_t owner_gid) {
  if (::geteuid() == 0 && owner_uid != 0) {
    // Raw syscalls: glibc's wrappers synchronise threads the fork did not copy.
    if (::syscall(SYS_setgroups, 0, nullptr) != 0 ||
        ::syscall(SYS_setresgid, owner_gid, owner_gid, owner_gid) != 0 ||
        ::syscall(SYS_setresuid, owner_uid, owner_uid, owner_uid) != 0 || ::geteuid() == 0) {
      send(out, Kind::no_privileges, errno);
      ::_exit(1);
    }
  }
}

[[noreturn]] void walk_main(int out, int dir, uid_t owner_uid, gid_t owner_gid, int max_depth,
                            int budget) {
  become_owner(out, owner_uid, owner_gid);
  Walk w{out, max_depth, budget};
  const int listing = ::openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (listing >= 0 && !walk(w, listing, 0, 0)) ::_exit(1);
  send(out, Kind::walk_end);
  ::_exit(0);
}

[[noreturn]] void read_main(int out, int dir, uid_t owner_uid, gid_t owner_gid,
                            const std::vector<const char*>& names, std::uint64_t max_bytes) {
  become_owner(out, owner_uid, owner_gid);
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

// Runs `body(write_end)` in a forked helper (which must _exit); returns its pid and
// the read end in `in`.
template <class Body>
pid_t start_helper(int* in, Body body) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) throw_errno("pipe");
  const pid_t helper = ::fork();
  if (helper < 0) {
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    throw_errno("fork");
  }
  if (helper == 0) {
    ::close(pipe_fds[0]);
    body(pipe_fds[1]);
  }
  ::close(pipe_fds[1]);
  *in = pipe_fds[0];
  return helper;
}

void finish_helper(int in, pid_t helper) {
  ::close(in);  // the helper sees EPIPE if it is still writing
  int status = 0;
  while (::waitpid(helper, &status, 0) < 0 && errno == EINTR) {
  }
}

struct Found {
  std::string path;
  int depth = 0;
};

struct WalkResult {
  std::vector<Found> entries;
  std::vector<std::string> folder_links;
  std::string too_many_at;  // where the walk stopped, when it did
  bool no_privileges = false;
  std::int32_t error = 0;
};

WalkResult walk_submission(int dir, const struct stat& owner, const StagingLimits& limits) {
  WalkResult found;
  int in = -1;
  const int max_depth = std::clamp(limits.max_depth + 1, 0, kMaxWalkDepth);
  const pid_t helper = start_helper(&in, [&](int out) {
    walk_main(out, dir, owner.st_uid, owner.st_gid, max_depth, limits.max_walk_entries);
  });
  try {
    for (;;) {
      Record r{};
      read_exact(in, &r, sizeof r);
      if (r.kind == Kind::walk_end) break;
      if (r.kind == Kind::no_privileges) {
        found.no_privileges = true;
        found.error = r.detail;
        break;
      }
      std::uint32_t length = 0;
      read_exact(in, &length, sizeof length);
      if (length > sizeof g_walk_path) throw std::runtime_error("staging helper: bad path");
      std::string path(length, '\0');
      read_exact(in, path.data(), length);
      if (r.kind == Kind::entry) {
        found.entries.push_back({path, r.detail});
      } else if (r.kind == Kind::folder_link) {
        found.folder_links.push_back(path);
      } else if (r.kind == Kind::too_many) {
        found.too_many_at = path;
        break;
      } else {
        throw std::runtime_error("staging helper: bad walk record");
      }
    }
  } catch (...) {
    finish_helper(in, helper);
    throw;
  }
  finish_helper(in, helper);
  std::sort(found.entries.begin(), found.entries.end(),
            [](const Found& a, const Found& b) { return a.path < b.path; });
  std::sort(found.folder_links.begin(), found.folder_links.end());
  return found;
}

// The optional files to stage, or a refusal in `result`.
std::vector<std::string> optional_names(const WalkResult& found, const std::vector<std::string>& required,
                                        bool (*want_optional)(const std::string&),
                                        const StagingLimits& limits, StagingResult& result) {
  std::vector<std::string> names;
  auto refuse = [&](const std::string& file, const std::string& reason) {
    result.refused_file = file;
    result.reason = reason;
    return std::vector<std::string>{};
  };
  if (!found.too_many_at.empty()) {
    return refuse(found.too_many_at,
                  "the submission folder holds more than " + std::to_string(limits.max_walk_entries) +
                      " files and folders (counted up to " + found.too_many_at +
                      "); its sub-folders are searched for headers: remove build outputs and "
                      "other files the build does not need");
  }
  if (!found.folder_links.empty()) {
    const std::string& link = found.folder_links.front();
    return refuse(link, link + " is a symbolic link to a folder; submit the folder itself " +
                            "(links are not followed)");
  }
  int in_subfolders = 0;
  for (const Found& f : found.entries) {
    if (!want_optional(f.path)) continue;
    if (f.depth == 0 && std::find(required.begin(), required.end(), f.path) != required.end()) continue;
    if (f.depth > limits.max_depth) {
      return refuse(f.path, f.path + " is nested deeper than the " + std::to_string(limits.max_depth) +
                                " sub-folder levels a submission's headers may use; move it up");
    }
    if (f.depth > 0 && ++in_subfolders > limits.max_subfolder_files) {
      return refuse(f.path, "the submission has more than " + std::to_string(limits.max_subfolder_files) +
                                " headers in sub-folders (reached at " + f.path +
                                "); remove the ones the build does not need");
    }
    names.push_back(f.path);
  }
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
  try {
    const WalkResult found = walk_submission(dir, owner, limits);
    if (found.no_privileges) {
      result.refused_file = submission.string();
      result.reason = refusal(submission.string(), Record{Kind::no_privileges, found.error, 0}, limits);
      ::close(dir);
      return result;
    }
    for (std::string& name : optional_names(found, required, want_optional, limits, result)) {
      names.push_back(name);
    }
  } catch (...) {
    ::close(dir);
    throw;
  }
  if (!result.ok()) {
    ::close(dir);
    return result;
  }
  std::vector<const char*> c_names;
  for (const std::string& name : names) c_names.push_back(name.c_str());

  int in = -1;
  pid_t helper = -1;
  try {
    helper = start_helper(&in, [&](int out) {
      read_main(out, dir, owner.st_uid, owner.st_gid, c_names, limits.max_file_bytes);
    });
  } catch (...) {
    ::close(dir);
    throw;
  }
  ::close(dir);
  auto finish = [&] { finish_helper(in, helper); };
  std::uint64_t total = 0;
  try {
    for (const std::string& name : names) {
      Record r{};
      read_exact(in, &r, sizeof r);
      if (r.kind != Kind::ok) {
        result.refused_file = r.kind == Kind::no_privileges ? submission.string() : name;
        result.reason = refusal(name, r, limits);
        result.missing = r.kind == Kind::missing &&
                         std::find(required.begin(), required.end(), name) != required.end();
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
      if (name.find('/') != std::string::npos) fs::create_directories((stage / name).parent_path());
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
