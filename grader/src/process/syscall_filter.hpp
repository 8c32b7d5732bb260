#pragma once
// The system calls a run without bubblewrap may not make (docs/sandbox.md, "Sealed at
// every level"). bubblewrap gives a run its own network, user and keyring namespaces;
// the fallback level (`--sandbox off`, or `auto` where namespaces cannot be made:
// Gradescope's containers, unprivileged Docker) has none of them, but any process may
// install a seccomp filter on itself once it has no_new_privs. So every run without
// bubblewrap gets one, built once per grader with libseccomp and installed between
// fork and exec:
//   - no internet or packet sockets (AF_INET, AF_INET6, AF_PACKET; socket() fails
//     with EACCES): nothing in, nothing out; Unix sockets stay (pipes, socketpair,
//     Python's multiprocessing);
//   - no io_uring (its socket operations would pass by the socket() rule);
//   - no kernel keyrings (add_key, request_key, keyctl fail with EPERM): a keyring
//     of the pool uid would outlive the run and carry answers to the next one.
// System calls of another architecture (32-bit x86 on x86-64) kill the process.
#include <linux/filter.h>

#include <optional>
#include <string>
#include <vector>

namespace parlab::grader::process {

struct SyscallFilter {
  std::vector<sock_filter> instructions;
  sock_fprog program{};  // points into `instructions`
};

// The fallback filter, built on first use; nullptr when libseccomp could not build it
// (`fallback_filter_problem` then says why, for the report's isolation note).
const SyscallFilter* fallback_syscall_filter();
const std::optional<std::string>& fallback_filter_problem();

// In the forked child, after PR_SET_NO_NEW_PRIVS: async-signal-safe (one prctl).
bool install_syscall_filter(const sock_fprog& program) noexcept;

}  // namespace parlab::grader::process
