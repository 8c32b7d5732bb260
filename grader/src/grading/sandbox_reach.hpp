#pragma once
// When the grader runs as root, children run as an unprivileged user (docs/sandbox.md).
// That user must be able to reach every folder a child is given: a work dir under a
// private (0700) parent would make every build "fail" for a reason that is the
// grader's, not the student's. Checked once, up front, as an environment error.
#include <filesystem>
#include <string>

namespace parlab::grader {

// Throws EnvironmentError naming the first ancestor of `path` (or `path` itself, when
// it exists) that others cannot enter, with what to do about it. `role` says what the
// path is for, e.g. "work dir".
void require_reachable_by_others(const std::filesystem::path& path, const std::string& role);

}  // namespace parlab::grader
