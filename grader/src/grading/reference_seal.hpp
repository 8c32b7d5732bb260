#pragma once
// The instructor's files closed to the submission's uid at every sandbox level
// (docs/sandbox.md, "Sealed at every level"). bubblewrap hides them from a run's
// view, but the fallback (`--sandbox auto` without bubblewrap, `--sandbox off`) and
// the compiler outside bubblewrap see every world-readable file: a submission
// could run a reference executable for its answers, or `.incbin`/`#include` it.
//
// When the grader is root, every reference executable named in toolchain.json (all
// labs; a kit's prebuilt ones included) and the folders holding reference sources and
// objects get the submissions' group (uid_pool.hpp, submissions_gid) with no group
// permission (g-rwx). Every run of a submission, its compiler's included, has that
// group as its only supplementary group, and a process in a file's group gets the
// group's permission, not the others': it can neither run, read nor list them. The
// reference's runs are not in the group, nor is a student who grades as themselves
// on the same install later: both keep the others' permission, so a tree sealed by
// root still grades for a non-root user. Owners are kept (a developer's clone stays
// theirs); nothing is done when the grader is not root (the submission then runs as
// the grader's own user, which no mode can keep out).
#include <sys/types.h>

#include <filesystem>
#include <vector>

#include "compile/toolchain.hpp"

namespace parlab::grader {

struct InstructorFiles {
  std::vector<std::filesystem::path> executables;  // run by reference runs
  std::vector<std::filesystem::path> folders;      // never needed by a run
};

// What toolchain.json and the build tree hold of the instructor's; paths that do
// not exist are left out.
InstructorFiles instructor_files(const Toolchain& toolchain);

// Seals them against `submissions_gid`. Throws EnvironmentError naming a path that
// cannot be sealed (then grading untrusted code would hand out the answers).
void seal_instructor_files(const InstructorFiles& files, gid_t submissions_gid);

}  // namespace parlab::grader
