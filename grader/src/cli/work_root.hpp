#pragma once
// Where a grading's builds, runs and caches go when --work-dir is not given. A shared
// install is read-only for its students, so a student's work is kept in their own cache.
#include <filesystem>

namespace parlab::grader {

// root (a container, CI, an instructor's machine): BUILD_DIR/grade-work, as always.
// Anyone else: $XDG_CACHE_HOME/parlab, else $HOME/.cache/parlab, else BUILD_DIR/grade-work.
std::filesystem::path default_work_root(const std::filesystem::path& build_dir);

// Creates the folder if needed and checks that this user may write in it; an
// EnvironmentError (exit 3) naming the folder and the fix when not.
void require_writable_work_root(const std::filesystem::path& work_root);

}  // namespace parlab::grader
