#pragma once
// The grader's whole tree closed to the submission's uid, not a list of known secrets
// (docs/sandbox.md, "Sealed at every level"). Without bubblewrap a run sees every
// world-readable file: a list of what to hide always misses something (the history in
// `.git` holds every reference source ever committed). So the seal is an allow list:
// under the source and build folders, the submission's group may reach only what its
// compile and runs need (the lab folders, the public headers, the prebuilt libraries
// it links, the CUDA probe, the work roots); every other entry gets the submissions'
// group with no group permission, and each folder on the way to an allowed path gets
// search without listing (g=x where others may search). Others' and owner's
// permissions are never changed, so the reference's uid and a student grading as
// themselves see what they saw before; an entry others may not use at all is left as
// it is (a private folder keeps its group).
//
// planning is pure (a walk that changes nothing) and applying is separate, so the plan
// is tested on a scratch tree.
#include <sys/types.h>

#include <filesystem>
#include <vector>

#include "compile/toolchain.hpp"

namespace parlab::grader {

struct TreeSeal {
  std::vector<std::filesystem::path> closed;    // no group permission
  std::vector<std::filesystem::path> passages;  // group may search, not list
  std::vector<std::filesystem::path> open;      // the allowed paths inside the roots
};

// Every entry under `roots` that is neither an allowed path, inside one, nor on the
// way to one. Links are never followed (a link is left as it is: its target is either
// inside a root, where the walk decides, or not the grader's). Roots nested in another
// root are walked once.
TreeSeal plan_tree_seal(const std::vector<std::filesystem::path>& roots,
                        const std::vector<std::filesystem::path>& allowed);

// What the submission's compile and runs need from the toolchain's trees, plus the
// work roots gradings use (work_root_registry).
std::vector<std::filesystem::path> submission_needs(const Toolchain& toolchain,
                                                    const std::vector<std::filesystem::path>& work_roots);

// The source folder and, when it lies elsewhere, the build folder.
std::vector<std::filesystem::path> grader_roots(const Toolchain& toolchain);

// The git folders of a worktree or of a clone with a separate git dir, where `.git` in
// the source folder is a file naming them (`gitdir:`, then its `commondir`): closed
// whole, since the history there holds every reference source ever committed.
std::vector<std::filesystem::path> git_folders_elsewhere(const std::filesystem::path& source_dir);

// Applies the plan against `submissions_gid`; an allowed path an earlier seal closed
// gets the others' permission back for the group. Throws EnvironmentError naming a
// path that cannot be changed.
void apply_tree_seal(const TreeSeal& seal, gid_t submissions_gid);

// All of it for one grading: its work root registered (when inside the trees), the
// trees sealed with every registered work root allowed, git folders elsewhere closed.
void seal_grader_tree(const Toolchain& toolchain, const std::filesystem::path& work_root,
                      gid_t submissions_gid);

}  // namespace parlab::grader
