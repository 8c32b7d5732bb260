#include "compile/staging_helper.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace parlab::grader::staging {

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

namespace {

// --- the helper side: async-signal-safe calls only (it is a fork of a possibly
// multi-threaded grader), no allocation.

bool send(int out, Kind kind, std::int32_t detail = 0, std::uint64_t size = 0) {
  Record r{kind, detail, size};
  return write_all(out, &r, sizeof r);
}

char g_buffer[kChunkBytes];

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

char g_path[kMaxPathBytes];

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

char g_dents[kMaxWalkDepth + 1][8192];
char g_walk_path[kMaxPathBytes];

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

}  // namespace

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

}  // namespace parlab::grader::staging
