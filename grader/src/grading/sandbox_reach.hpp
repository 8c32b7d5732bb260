#pragma once
// When the grader runs as root, children run as an unprivileged user (docs/sandbox.md).
// That user must be able to reach every folder a child is given: a work dir under a
// private (0700) parent would make every build "fail" for a reason that is the
// grader's, not the student's. Checked once, up front: a private *parent* (a clone
// under /root, mode 0700) is bridged in the children's own mount namespace
// (process/reach_bridge.hpp); what cannot be bridged is an environment error.
#include <filesystem>
#include <string>

namespace parlab::grader {

// Registers a reach bridge for every private ancestor of `path`; throws
// EnvironmentError naming the first one that cannot be bridged (`path` itself being
// private, or the grader not root), with what to do about it. `role` says what the
// path is for, e.g. "work dir".
void require_reachable_by_others(const std::filesystem::path& path, const std::string& role);

}  // namespace parlab::grader
