#pragma once
// Whether bubblewrap works here: installed, and allowed to create namespaces and
// mount /proc (containers and hardened kernels often forbid one or the other).
// Checked by running the real sandbox around `true` once; the answer is cached
// for the life of the grader process.
#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>

namespace parlab::grader::process {

struct BubblewrapCheck {
  bool usable = false;
  std::string problem;  // why not, for the report's notes; empty when usable
};

struct SandboxUser {
  uid_t uid = 0;
  gid_t gid = 0;
};

// `run_as`: the unprivileged user the real runs will use (bubblewrap then needs
// unprivileged user namespaces), or empty to run as the grader's own user.
BubblewrapCheck check_bubblewrap(const std::filesystem::path& bwrap,
                                 const std::optional<SandboxUser>& run_as);

}  // namespace parlab::grader::process
