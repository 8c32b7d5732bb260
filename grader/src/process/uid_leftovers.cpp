#include "process/uid_leftovers.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/magic.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "process/uid_keyrings.hpp"
#include "process/unique_fd.hpp"

namespace parlab::grader::process {
namespace {

namespace fs = std::filesystem;

// Deeper trees are left (and reported): the recursion must not exhaust the stack.
constexpr int kMaxDepth = 256;
// How deep and how much of a shared folder is searched for the uid's entries after
// every run: bounded, so a host's big tree in /tmp costs little.
constexpr int kMaxSearchDepth = 32;
constexpr int kMaxLookedAt = 50000;

struct Entry {
  std::string name;
  unsigned char type;  // DT_DIR, DT_REG, ... or DT_UNKNOWN where the file system does not say
};

// Entries of the folder `dir` refers to (the descriptor stays open).
std::vector<Entry> entries_in(int dir) {
  std::vector<Entry> entries;
  int copy = ::dup(dir);
  if (copy < 0) return entries;
  DIR* stream = ::fdopendir(copy);
  if (stream == nullptr) {
    ::close(copy);
    return entries;
  }
  while (dirent* entry = ::readdir(stream)) {
    if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0)
      entries.push_back(Entry{entry->d_name, entry->d_type});
  }
  ::closedir(stream);
  return entries;
}

// Removes `name` in `parent`; a folder with everything in it, links never followed.
bool remove_tree_at(int parent, const std::string& name, int depth) {
  struct stat info {};
  if (::fstatat(parent, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) return errno == ENOENT;
  if (!S_ISDIR(info.st_mode)) return ::unlinkat(parent, name.c_str(), 0) == 0 || errno == ENOENT;
  if (depth >= kMaxDepth) return false;
  UniqueFd dir(::openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!dir.valid()) return false;
  bool all = true;
  for (const Entry& child : entries_in(dir.get())) all = remove_tree_at(dir.get(), child.name, depth + 1) && all;
  return all && (::unlinkat(parent, name.c_str(), AT_REMOVEDIR) == 0 || errno == ENOENT);
}

// A search of one shared folder: a run may have left entries in any folder below it
// that others may write to (a 1777 folder someone made in /tmp).
struct FolderWalk {
  uid_t uid;
  dev_t device;  // other file systems (a grading's run area) are not searched
  int budget;    // entries still to look at
  int removed;
  std::vector<std::string>& problems;
  bool nlink_counts_subfolders;  // a folder's link count is 2 + its subfolders
  bool root_shared;              // the walk's root is a shared folder (/tmp), not a bind in one
};

// tmpfs, ext2/3/4 and XFS keep that count (ext4 says 1 past 65000); btrfs and
// overlayfs do not, so there every folder is opened.
bool counts_subfolders(int dir) {
  struct statfs fs_info {};
  if (::fstatfs(dir, &fs_info) != 0) return false;
  return fs_info.f_type == TMPFS_MAGIC || fs_info.f_type == EXT4_SUPER_MAGIC || fs_info.f_type == XFS_SUPER_MAGIC;
}

// Where the uid could create an entry: write and search permission for others. A
// folder of its own below a folder it cannot write is the grader's (a run folder, a
// build kept for the next grading): left, and not searched.
bool others_may(const struct stat& info, mode_t bits) { return (info.st_mode & bits) == bits; }

void sweep_folder(int dir, const fs::path& path, int depth, FolderWalk& walk) {
  struct stat self {};
  if (::fstat(dir, &self) != 0 || self.st_dev != walk.device) return;  // swapped in meanwhile
  // Every entry of the uid directly in a shared folder is litter.
  const bool litter_here = (depth == 0 && walk.root_shared) || others_may(self, S_IWOTH | S_IXOTH);
  for (const Entry& entry : entries_in(dir)) {
    const std::string& name = entry.name;
    if (--walk.budget < 0) {
      walk.problems.push_back(path.string() + ": more than " + std::to_string(kMaxLookedAt) +
                              " entries, the rest not searched");
      return;
    }
    // Where the uid cannot create entries only folders matter (one may be open to it):
    // a file the directory entry already names as no folder is not even looked at.
    if (!litter_here && entry.type != DT_DIR && entry.type != DT_UNKNOWN) continue;
    struct stat info {};
    if (::fstatat(dir, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (info.st_uid == walk.uid) {
      if (!litter_here) continue;
      if (remove_tree_at(dir, name, 0)) ++walk.removed;
      else walk.problems.push_back((path / name).string());
      continue;
    }
    if (!S_ISDIR(info.st_mode) || info.st_dev != walk.device || depth + 1 >= kMaxSearchDepth ||
        !others_may(info, S_IXOTH))
      continue;  // the uid could not have passed it
    if (walk.nlink_counts_subfolders && info.st_nlink == 2 && !others_may(info, S_IWOTH | S_IXOTH))
      continue;  // no folder inside, and no entry it could have made

    UniqueFd sub(::openat(dir, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (sub.valid()) sweep_folder(sub.get(), path / name, depth + 1, walk);
    if (walk.budget < 0) return;
  }
}

// The column of `name` in a /proc/sysvipc header, or -1.
int column_of(const std::string& header, const std::string& name) {
  std::istringstream words(header);
  std::string word;
  for (int i = 0; words >> word; ++i)
    if (word == name) return i;
  return -1;
}

template <typename Remove>
int remove_ipc_listed_in(const char* file, uid_t uid, Remove remove) {
  std::ifstream in(file);
  std::string line;
  if (!std::getline(in, line)) return 0;
  const int owner = column_of(line, "uid"), creator = column_of(line, "cuid");
  if (owner < 0 || creator < 0) return 0;
  int removed = 0;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::vector<std::string> fields;
    for (std::string word; words >> word;) fields.push_back(word);
    if (fields.size() <= static_cast<std::size_t>(std::max(owner, creator))) continue;
    const std::string id_text = fields[1];  // "key id perms ..." in all three files
    if (std::to_string(uid) != fields[static_cast<std::size_t>(owner)] &&
        std::to_string(uid) != fields[static_cast<std::size_t>(creator)])
      continue;
    if (remove(std::atoi(id_text.c_str())) == 0) ++removed;
  }
  return removed;
}

}  // namespace

// From each process's status (its /proc folder shows root as the owner of a process
// that made itself non-dumpable).
std::vector<pid_t> processes_of(uid_t uid) {
  std::vector<pid_t> pids;
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return pids;
  const std::string wanted = std::to_string(uid);
  while (dirent* entry = ::readdir(proc)) {
    char* end = nullptr;
    long pid = std::strtol(entry->d_name, &end, 10);
    if (pid <= 0 || *end != '\0') continue;
    std::ifstream status(std::string("/proc/") + entry->d_name + "/status");
    for (std::string line; std::getline(status, line);) {
      if (line.rfind("Uid:", 0) != 0) continue;
      std::istringstream ids(line.substr(4));
      std::string real, effective, saved;
      ids >> real >> effective >> saved;
      if (real == wanted || effective == wanted || saved == wanted) pids.push_back(static_cast<pid_t>(pid));
      break;
    }
  }
  ::closedir(proc);
  return pids;
}

// Debian 12's world-writable folders (`find / -xdev -type d -perm -0002` and the
// memory file systems); /var/lock is a link to /run/lock.
std::vector<fs::path> shared_scratch_folders() {
  return {"/dev/shm", "/tmp", "/var/tmp", "/dev/mqueue", "/run/lock"};
}

namespace {

bool within_or_equal(const fs::path& path, const fs::path& dir) {
  const fs::path relative = path.lexically_normal().lexically_relative(dir.lexically_normal());
  return !relative.empty() && *relative.begin() != "..";
}

}  // namespace

// Both spellings of each path are compared: a link on the way (/var/lock) must not
// hide an overlap.
ScratchReach scratch_reachable_through(const std::vector<fs::path>& writable_binds) {
  auto spellings = [](const fs::path& path) {
    std::error_code error;
    const fs::path real = fs::weakly_canonical(path, error);
    return error ? std::vector<fs::path>{path.lexically_normal()}
                 : std::vector<fs::path>{path.lexically_normal(), real};
  };
  ScratchReach reach;
  for (const fs::path& folder : shared_scratch_folders()) {
    bool whole = false;
    std::vector<fs::path> inside;
    for (const fs::path& bind : writable_binds)
      for (const fs::path& b : spellings(bind))
        for (const fs::path& f : spellings(folder)) {
          if (within_or_equal(f, b)) whole = true;
          else if (within_or_equal(b, f)) inside.push_back(b);
        }
    if (whole) reach.folders.push_back(folder);
    else reach.subtrees.insert(reach.subtrees.end(), inside.begin(), inside.end());
  }
  std::sort(reach.subtrees.begin(), reach.subtrees.end());
  reach.subtrees.erase(std::unique(reach.subtrees.begin(), reach.subtrees.end()), reach.subtrees.end());
  return reach;
}

int kill_every_process_of(uid_t uid, gid_t gid) {
  const std::vector<pid_t> before = processes_of(uid);
  // Killed even when none was listed: one may have hidden, or forked since.
  // kill(-1) from a process holding the uid reaches exactly that uid's processes,
  // in every pid namespace below this one, even ones that fork while it runs.
  pid_t killer = ::fork();
  if (killer == 0) {
    if (::syscall(SYS_setgroups, 0, nullptr) != 0 || ::syscall(SYS_setresgid, gid, gid, gid) != 0 ||
        ::syscall(SYS_setresuid, uid, uid, uid) != 0)
      ::_exit(2);
    // One round reaches them all: the kernel walks the process list under the lock a fork
    // needs to join it, and a fork whose parent got SIGKILL meanwhile fails. Two more
    // rounds cost nothing. Not "until ESRCH": outside a pid namespace kill(-1) succeeds
    // while any other process exists, permitted or not, so that loop ran its 200 rounds
    // after every run (about 5 ms each time).
    for (int round = 0; round < 3; ++round)
      if (::kill(-1, SIGKILL) != 0 && errno != ESRCH) ::_exit(3);
    ::_exit(0);
  }
  if (killer > 0) {
    int status = 0;
    while (::waitpid(killer, &status, 0) < 0 && errno == EINTR) {
    }
  }
  // Those that came back to this subreaper are zombies now: reap them by pid only,
  // so no other thread's child is taken.
  for (pid_t pid : before) {
    for (int attempt = 0; attempt < 20; ++attempt) {
      if (::waitpid(pid, nullptr, WNOHANG) != 0) break;  // reaped, or not our child
      ::usleep(1000);
    }
  }
  return static_cast<int>(before.size());
}

int remove_entries_owned_by(uid_t uid, const std::vector<fs::path>& folders, std::vector<std::string>& problems,
                            bool roots_shared) {
  int removed = 0;
  for (const fs::path& folder : folders) {
    UniqueFd dir(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    struct stat info {};
    if (!dir.valid() || ::fstat(dir.get(), &info) != 0) continue;  // not on this machine
    FolderWalk walk{uid, info.st_dev, kMaxLookedAt, 0, problems, counts_subfolders(dir.get()), roots_shared};
    sweep_folder(dir.get(), folder, 0, walk);
    removed += walk.removed;
  }
  return removed;
}

int remove_ipc_objects_of(uid_t uid) {
  return remove_ipc_listed_in("/proc/sysvipc/shm", uid, [](int id) { return ::shmctl(id, IPC_RMID, nullptr); }) +
         remove_ipc_listed_in("/proc/sysvipc/msg", uid, [](int id) { return ::msgctl(id, IPC_RMID, nullptr); }) +
         remove_ipc_listed_in("/proc/sysvipc/sem", uid, [](int id) { return ::semctl(id, 0, IPC_RMID); });
}

LeftoverSweep sweep_leftovers_of(uid_t uid, gid_t gid) {
  return sweep_leftovers_of(uid, gid, ScratchReach{shared_scratch_folders(), {}});
}

LeftoverSweep sweep_leftovers_of(uid_t uid, gid_t gid, const ScratchReach& reach) {
  LeftoverSweep sweep;
  sweep.processes_killed = kill_every_process_of(uid, gid);
  sweep.keys_removed = clear_keys_of(uid, gid);
  if (sweep.keys_removed < 0) {
    sweep.keys_removed = 0;
    sweep.problems.push_back("kernel keys: the helper could not take the uid");
  }
  sweep.files_removed = remove_entries_owned_by(uid, reach.folders, sweep.problems) +
                        remove_entries_owned_by(uid, reach.subtrees, sweep.problems, false);
  sweep.ipc_objects_removed = remove_ipc_objects_of(uid);
  return sweep;
}

}  // namespace parlab::grader::process
