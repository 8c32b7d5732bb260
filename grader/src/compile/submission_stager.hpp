#pragma once
// Copies a submission's files into the grader's staging folder without trusting the
// folder: each file is opened relative to a directory descriptor the grader opened,
// without following a symbolic link, regular files only, never blocking (a FIFO is
// refused, not waited on), size-capped. When the grader runs as root the reads happen
// in a forked helper holding the submission folder owner's uid and gid, so a hard link
// or a path trick cannot make root read a file its owner could not.
//
// Headers in sub-folders (`#include "common/helpers.cuh"`) are staged too, at the same
// relative path. The helper walks the folder itself, as the owner: every directory is
// opened relative to its parent's descriptor with O_DIRECTORY|O_NOFOLLOW, so a link to a
// folder is refused by name, never entered; hidden folders (.git, .vscode) are skipped;
// depth, entry and header counts are capped, and a refusal names the file.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace parlab::grader {

struct StagingLimits {
  std::uint64_t max_file_bytes = 4u << 20;    // a source file larger than this is refused
  std::uint64_t max_total_bytes = 16u << 20;  // all staged files together
  int max_depth = 4;                   // sub-folder levels a staged header may sit in
  int max_subfolder_files = 64;        // staged files found in sub-folders
  int max_walk_entries = 10000;        // names looked at in the whole folder tree
};

struct StagingResult {
  std::vector<std::string> staged;  // relative paths written into the stage, in order
  std::string refused_file;         // the first file refused, as a relative path (empty when all were staged)
  std::string reason;               // a sentence for the student naming refused_file
  bool missing = false;             // refused_file does not exist
  bool ok() const { return refused_file.empty(); }
};

// Stages `required` (each must exist, at the top of the folder) and every optional file
// the submission holds, in the folder or a sub-folder, for which `want_optional(path)`
// is true (`path` relative, '/'-separated: "common/helpers.cuh"). `stage` is recreated
// empty and mirrors the relative paths. Throws
// std::system_error only for grader-side failures (cannot fork, cannot write the stage).
StagingResult stage_submission_files(const std::filesystem::path& submission,
                                     const std::vector<std::string>& required,
                                     bool (*want_optional)(const std::string& name),
                                     const std::filesystem::path& stage,
                                     const StagingLimits& limits = {});

}  // namespace parlab::grader
