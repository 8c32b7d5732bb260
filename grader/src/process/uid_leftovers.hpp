#pragma once
// What a sandboxed uid leaves behind once its runs are over: processes that
// escaped the run's process group and cgroup, files in the machine's shared
// scratch folders (/dev/shm, /tmp, /var/tmp, /dev/mqueue, /run/lock) at any depth,
// System V IPC objects and kernel keys (uid_keyrings.hpp). Outside bubblewrap these outlive the run, hold memory (800 MB in
// /dev/shm was seen) and could carry data to a later run. Only for a uid that
// belongs to one grading (a leased pool uid) and only while none of its runs is
// going: everything the uid owns is then litter. docs/sandbox.md, "Sealed at
// every level".
#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace parlab::grader::process {

struct LeftoverSweep {
  int processes_killed = 0;   // processes of the uid seen before the kill
  int files_removed = 0;      // entries (whole trees) removed from the scratch folders
  int ipc_objects_removed = 0;
  int keys_removed = 0;       // kernel keys and keyrings invalidated
  std::vector<std::string> problems;  // what could not be removed, for a log
};

// The processes (in this pid namespace) whose real, effective or saved uid is `uid`.
std::vector<pid_t> processes_of(uid_t uid);

// The folders every user may write to, where a run's files would stay.
std::vector<std::filesystem::path> shared_scratch_folders();

// Where a bubblewrap run could still write into the shared scratch folders. Its /tmp,
// /dev (with /dev/shm) and IPC namespace are private and die with it; /var and /run
// are not mounted at all, so only its writable binds (read-write views, work dir) reach
// the host's. A bind that holds a scratch folder reaches all of it; a bind that lies
// inside one reaches only itself, so only that subtree is searched: a work folder
// under a crowded /tmp must not cost a walk of the whole /tmp after every run.
struct ScratchReach {
  std::vector<std::filesystem::path> folders;   // whole shared folders
  std::vector<std::filesystem::path> subtrees;  // binds inside a shared folder
  bool empty() const { return folders.empty() && subtrees.empty(); }
};
ScratchReach scratch_reachable_through(const std::vector<std::filesystem::path>& writable_binds);

// Kills every process of `uid`, from a helper that takes that uid (kill(-1)), and
// reaps those that were the grader's children. Returns how many there were.
int kill_every_process_of(uid_t uid, gid_t gid);

// Removes, recursively and without following links, every entry owned by `uid`
// directly in `folders` or in any folder below them that others may write to
// (searched through folders others may pass, on the same file system, 32 levels and
// 50000 entries at most; what is left unsearched goes to `problems`). With
// `roots_shared` false the roots are not shared folders themselves (a bind below
// /tmp): their entries are litter only where others may write to the root too.
int remove_entries_owned_by(uid_t uid, const std::vector<std::filesystem::path>& folders,
                            std::vector<std::string>& problems, bool roots_shared = true);

// Removes System V shared memory, message queues and semaphore sets created by or
// belonging to `uid` (listed in /proc/sysvipc).
int remove_ipc_objects_of(uid_t uid);

// All four, processes first (so nothing writes or adds keys meanwhile).
LeftoverSweep sweep_leftovers_of(uid_t uid, gid_t gid);
// The same, with files searched for only where the uid's runs could write (`reach`).
LeftoverSweep sweep_leftovers_of(uid_t uid, gid_t gid, const ScratchReach& reach);

}  // namespace parlab::grader::process
