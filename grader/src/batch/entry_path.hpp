#pragma once
// Path rules for what a student's archive or folder may create (docs/batch.md): an
// entry lands strictly inside the submission's own folder. Pure functions, so every
// rule has a unit test.
#include <filesystem>
#include <string>
#include <string_view>

namespace parlab::grader::batch {

struct EntryPath {
  std::filesystem::path relative;  // normalized, never leaving the folder; empty: the folder itself
  std::string problem;             // why the name is refused; empty when it is fine
  bool ok() const { return problem.empty(); }
  bool is_root() const { return ok() && relative.empty(); }  // "./", as `tar -C dir .` writes
};

// Refuses empty names, absolute paths and any ".." component; drops "." components
// (so "./a/b" is "a/b", "./" is the folder itself). `name` is the entry's name as
// stored in the archive.
EntryPath check_entry_path(std::string_view name);

// A symlink may only point at a relative path without "..": such a target stays in
// the link's own folder tree whatever other links exist. Returns why not, or "".
std::string symlink_target_problem(std::string_view target);

// Names of folders that archivers add and that never hold a submission.
bool is_archiver_litter(const std::filesystem::path& name);

}  // namespace parlab::grader::batch
