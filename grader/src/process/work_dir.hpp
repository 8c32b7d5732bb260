#pragma once
// The child's private work dir: created if missing and, when the child runs as
// an unprivileged user, handed to that user so it can write there and nowhere else.
#include <sys/types.h>

#include <filesystem>
#include <optional>

namespace parlab::grader::process {

struct FileOwner {
  uid_t uid = 0;
  gid_t gid = 0;
};

// Creates `dir` and its parents; returns its canonical path. With `owner`, the
// dir and everything below it are chowned to that user without following
// symlinks (a link left by an earlier run must not make the grader chown its
// target) and skipping files with several hard links (one may be a file of the
// grader's). Throws std::filesystem::filesystem_error / std::system_error.
std::filesystem::path prepare_work_dir(const std::filesystem::path& dir,
                                       const std::optional<FileOwner>& owner);

}  // namespace parlab::grader::process
