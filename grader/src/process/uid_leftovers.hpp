#pragma once
// What a sandboxed uid leaves behind once its runs are over: processes that
// escaped the run's process group and cgroup, files in the machine's shared
// scratch folders (/dev/shm, /tmp, /var/tmp, /dev/mqueue) and System V IPC
// objects. Outside bubblewrap these outlive the run, hold memory (800 MB in
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
  int files_removed = 0;      // top-level entries removed from the scratch folders
  int ipc_objects_removed = 0;
  std::vector<std::string> problems;  // what could not be removed, for a log
};

// The processes (in this pid namespace) whose real, effective or saved uid is `uid`.
std::vector<pid_t> processes_of(uid_t uid);

// The folders every user may write to, where a run's files would stay.
std::vector<std::filesystem::path> shared_scratch_folders();

// Kills every process of `uid`, from a helper that takes that uid (kill(-1)), and
// reaps those that were the grader's children. Returns how many there were.
int kill_every_process_of(uid_t uid, gid_t gid);

// Removes, recursively and without following links, every entry directly in
// `folders` owned by `uid`.
int remove_entries_owned_by(uid_t uid, const std::vector<std::filesystem::path>& folders,
                            std::vector<std::string>& problems);

// Removes System V shared memory, message queues and semaphore sets created by or
// belonging to `uid` (listed in /proc/sysvipc).
int remove_ipc_objects_of(uid_t uid);

// All three, processes first (so nothing writes while files are removed).
LeftoverSweep sweep_leftovers_of(uid_t uid, gid_t gid);

}  // namespace parlab::grader::process
