#pragma once
// The kernel's key store is per uid and outlives every process: a run could keep
// answers in its uid's user keyring (@u), user-session keyring (@us), persistent
// keyring or any keyring it owns, and read them in a later run or grading of the
// same pool uid. And a run would share the grader's own session keyring (inherited
// across the uid switch) with every other grading started from the same login.
// Runs are refused the key system calls where syscall_filter.hpp's key store filter can be
// installed; this is for where it cannot, and for keys a crashed grader's runs left.
// docs/sandbox.md, "Sealed at every level".
#include <sys/types.h>

namespace parlab::grader::process {

// In a run's child, just after it took the run's uid: a fresh, empty session
// keyring of that uid instead of the grader's. False (errno set) when the kernel
// refused for a reason other than having no keyrings at all (ENOSYS; EPERM from a
// seccomp filter): nothing can be stored then. Async-signal-safe.
bool join_own_session_keyring() noexcept;

// Run as the uid (a helper that took it): empties @u, @us and the persistent
// keyring and invalidates every key /proc/keys lists as the uid's. Returns how many
// keys were invalidated or revoked. Async-signal-safe: no allocation.
int clear_own_keys() noexcept;

// From the grader (root): clear_own_keys() in a helper that takes `uid` and `gid`.
// Returns the helper's count, or -1 when the helper could not run.
int clear_keys_of(uid_t uid, gid_t gid);

}  // namespace parlab::grader::process
