#pragma once
// A finished build is the grader's, never the runs' (docs/sandbox.md, "Builds no run can
// touch"). The compile writes as the grading's pool uid; the moment it ends, before any
// run, the whole build folder is given to the grader's own uid with no write permission
// for anyone else, so no run at any level can replace the executable a later grading
// would reuse. The SHA-256 of the folder a grading runs from (the executable, and for a
// Python program its driver and sources) is recorded with the build's key, and a cached
// build is reused only while that digest and the ownership still hold. The staged
// sources and their intermediates (rewritten copies, objects) are not part of it: each
// grading stages the sources again, and nothing runs from there.
#include <filesystem>
#include <string>

namespace parlab::grader {

// Every entry of `build_dir` (links not followed, at most 64 folders deep) owned by the
// grader's uid and gid and not writable by group or others. Does nothing when the
// grader is not root (runs are then its own user: nothing can hold). Throws
// EnvironmentError naming an entry that cannot be changed.
void freeze_build(const std::filesystem::path& build_dir);

// A file's SHA-256 as 64 hex digits; empty when it cannot be read.
std::string executable_digest(const std::filesystem::path& exe);

// The SHA-256 of every regular file under `dir` but `key_file` (its path relative
// to the folder, its size and its bytes, in path order; links not followed); empty when
// one cannot be read. A build's digest is that of the executable's folder.
std::string build_digest(const std::filesystem::path& dir, const std::filesystem::path& key_file);

// The executable's folder still has `digest`, and (as root) the executable and every
// folder from it up to `build_dir` are the grader's and writable by no one else.
bool build_intact(const std::filesystem::path& build_dir, const std::filesystem::path& exe,
                  const std::filesystem::path& key_file, const std::string& digest);

}  // namespace parlab::grader
