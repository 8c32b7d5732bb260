#pragma once
// The child runs in its own session and process group (pgid = its pid), so the
// grader can stop it together with everything it forked.
#include <sys/types.h>

#include <chrono>

namespace parlab::grader::process {

// SIGKILL to the group and to the leader itself. Harmless when they are gone.
void kill_process_group(pid_t leader);

// Makes this grader process the "child subreaper" (PR_SET_CHILD_SUBREAPER), once:
// grandchildren orphaned by the child's exit are re-parented to the grader instead
// of init, so reap_process_group() can collect them and they do not linger as
// zombies (a container's init often reaps nothing). Process-wide; idempotent.
void become_child_subreaper();

// Reaps the group's remaining members that became our children (see above),
// waiting until none is left or `patience` has passed. Call after the leader has
// been reaped and the group killed.
void reap_process_group(pid_t leader, std::chrono::milliseconds patience);

// Reaps `pid` if it is (or is about to be, being already killed or exiting) a
// child of ours; returns at once when it is not. For a known process that the
// subreaper setting hands to us, such as bubblewrap's sandbox init, which can
// outlive the bwrap process the grader started by a moment.
void reap_if_our_child(pid_t pid, std::chrono::milliseconds patience);

}  // namespace parlab::grader::process
