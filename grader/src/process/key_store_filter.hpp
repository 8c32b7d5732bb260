#pragma once
// A run may not use the kernel's key store at all: add_key, request_key and keyctl
// fail with ENOSYS, as on a kernel built without keys. The leftover sweep
// (uid_keyrings.hpp) clears what a run stored where this filter cannot be
// installed, but a run that takes away its own user keyring's write and setattr
// permissions and its keys' view and search permissions keeps them out of the
// sweep's reach; only refusing the system calls closes that. docs/sandbox.md,
// "Nothing left behind".
namespace parlab::grader::process {

// In a run's child, while it is still root: a seccomp filter needs no_new_privs or
// CAP_SYS_ADMIN, and runs under bubblewrap do not set no_new_privs (the others try
// again once they have). Inherited by everything the run starts. False (errno set)
// where it cannot be installed: no seccomp in the kernel, neither no_new_privs nor
// CAP_SYS_ADMIN (a container: its default seccomp profile refuses these calls
// already), an architecture this filter does not know.
// Async-signal-safe.
bool close_key_store() noexcept;

}  // namespace parlab::grader::process
