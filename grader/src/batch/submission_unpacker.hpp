#pragma once
// Puts one student's submission, archive or folder, into a fresh folder of its own
// (docs/batch.md "Safe unpacking"). Bad input is an outcome with a reason, never an
// exception: a corrupt archive, a path escaping the folder, a symlink pointing out,
// a device file, or more bytes or entries than the limits.
#include <cstdint>
#include <filesystem>
#include <string>

#include "batch/safe_tree_writer.hpp"

struct archive;

namespace parlab::grader::batch {

struct UnpackOutcome {
  std::string problem;  // empty on success
  std::uint64_t bytes = 0;
  std::uint64_t entries = 0;
  bool ok() const { return problem.empty(); }
};

// Makes a libarchive reader accept the submission formats below, and no other: one list
// for unpacking and for reading entry times (archive_entry_times).
void accept_submission_formats(archive* reader);

// .zip, .tar, .tar.gz/.tgz (also bzip2/xz compressed tar) through libarchive.
// `dest` must not exist yet; it is created. On failure `dest` may hold a partial
// tree (always inside `dest`): the caller removes it.
UnpackOutcome unpack_archive(const std::filesystem::path& archive,
                             const std::filesystem::path& dest, const UnpackLimits& limits);

// A plain folder, copied with the same rules (symlinks are recreated, not followed).
UnpackOutcome copy_folder(const std::filesystem::path& source, const std::filesystem::path& dest,
                          const UnpackLimits& limits);

// The folder holding the lab's sources: `root` itself, or, when a student zipped a
// folder (maybe with __MACOSX beside it), the single folder inside it, up to 3 levels.
std::filesystem::path find_submission_root(const std::filesystem::path& root,
                                           const std::string& first_source);

}  // namespace parlab::grader::batch
