#pragma once
// The system calls a run may not make (docs/sandbox.md, "Sealed at every level"), as
// seccomp filters built once per grader with libseccomp and installed by the run's
// child between fork and exec (one prctl, async-signal-safe). Two programs:
//   - the key store (every run of a root grader, at every level): add_key, request_key
//     and keyctl fail with ENOSYS, as on a kernel without keys. A uid's keyrings outlive
//     its processes: a run could keep answers there for a later run or grading of the
//     same pool uid, and a run that takes away its keys' permissions keeps them out of
//     the leftover sweep's reach (uid_keyrings.hpp), so only refusing the calls closes it;
//   - the fallback (runs without bubblewrap, which gives them no network namespace):
//     the key store's rules, plus no internet or packet sockets (AF_INET, AF_INET6,
//     AF_PACKET: socket() fails with EACCES; Unix sockets stay for pipes, socketpair
//     and Python's multiprocessing) and no io_uring (its socket operations would pass
//     by the socket() rule; EPERM).
// The rules cover the 32-bit calling conventions too (i386, x32 on x86-64; Arm on
// AArch64); a system call of any other architecture kills the process.
#include <linux/filter.h>

#include <optional>
#include <string>
#include <vector>

namespace parlab::grader::process {

struct SyscallFilter {
  std::vector<sock_filter> instructions;
  sock_fprog program{};  // points into `instructions`
};

// Built on first use; nullptr when libseccomp could not build it (`..._problem` says why,
// for the report's isolation note).
const SyscallFilter* key_store_filter();
const SyscallFilter* fallback_syscall_filter();
const std::optional<std::string>& fallback_filter_problem();

// In the forked child: root installs a filter without no_new_privs (CAP_SYS_ADMIN);
// anyone else after PR_SET_NO_NEW_PRIVS. Async-signal-safe (one prctl).
bool install_syscall_filter(const sock_fprog& program) noexcept;

}  // namespace parlab::grader::process
