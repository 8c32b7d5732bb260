#pragma once
// The runtime locks itself once it has its settings, before any code of the submission
// runs (docs/sandbox.md, "The runtime locks itself before the submission runs"):
//   1. the locked page (config/locked_state) becomes read-only and is sealed (mseal):
//      no mprotect, pkey_mprotect, munmap, mremap or MAP_FIXED mapping over it;
//   2. the read-only segments of every loaded object (code, constants, RELRO) are
//      sealed too (config/code_seal): the public hooks' code cannot be patched;
//   3. Landlock: no file beneath /proc can be opened for writing (/proc/self/mem
//      writes through any protection; PR_SET_DUMPABLE does not stop a process writing
//      its own);
//   4. a seccomp filter on every thread: no execve/execveat (a re-exec would run
//      without settings) except of the helper at g_locked.helper_path, no mprotect or
//      pkey_mprotect asking for PROT_EXEC, no ptrace, no process_vm_readv/writev,
//      process_madvise or io_uring, no filter of its own (seccomp, PR_SET_SECCOMP) and
//      no userfaultfd, which could stop the runtime's sends and rewrite them.
// Each holds for the process and every child it forks, and none can be undone.
#include <string>

namespace parlab_sim::detail {

// Locks; on failure returns false with what failed in `problem` (the caller fails
// closed: parlab_sim::kExitNotLocked).
bool lock_runtime(std::string& problem);

}  // namespace parlab_sim::detail
