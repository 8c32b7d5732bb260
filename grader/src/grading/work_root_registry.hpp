#pragma once
// The work roots that gradings of this build use inside its trees (the default
// `build/grade-work`, a batch's or a test's `--work-dir`), so that one grading's seal
// (grader_tree_seal) never closes the folder another grading is running in. A file of
// absolute paths, one a line, root's alone (0600), in the build folder, where the seal
// closes it to every submission.
#include <filesystem>
#include <vector>

namespace parlab::grader {

// The registry of a build folder.
std::filesystem::path work_root_registry(const std::filesystem::path& build_dir);

// The registered work roots that still exist (a removed test folder drops out).
std::vector<std::filesystem::path> registered_work_roots(const std::filesystem::path& registry);

// Adds `work_root` (one short append: concurrent graders never interleave a line);
// nothing when it is listed already. A registry that cannot be written is left as it
// is: this grading's own work root is allowed by its seal either way.
void register_work_root(const std::filesystem::path& registry, const std::filesystem::path& work_root);

}  // namespace parlab::grader
