#pragma once
// Copies a submission's files into the grader's staging folder without trusting the
// folder: each file is opened relative to a directory descriptor the grader opened,
// without following a symbolic link, regular files only, never blocking (a FIFO is
// refused, not waited on), size-capped. When the grader runs as root the reads happen
// in a forked helper holding the submission folder owner's uid and gid, so a hard link
// or a path trick cannot make root read a file its owner could not.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace parlab::grader {

struct StagingLimits {
  std::uint64_t max_file_bytes = 4u << 20;    // a source file larger than this is refused
  std::uint64_t max_total_bytes = 16u << 20;  // all staged files together
};

struct StagingResult {
  std::vector<std::string> staged;  // file names written into the stage, in order
  std::string refused_file;         // the first file refused (empty when all were staged)
  std::string reason;               // a sentence for the student naming refused_file
  bool missing = false;             // refused_file does not exist
  bool ok() const { return refused_file.empty(); }
};

// Stages `required` (each must exist) and every optional file the submission holds
// for which `want_optional(name)` is true. `stage` is recreated empty. Throws
// std::system_error only for grader-side failures (cannot fork, cannot write the stage).
StagingResult stage_submission_files(const std::filesystem::path& submission,
                                     const std::vector<std::string>& required,
                                     bool (*want_optional)(const std::string& name),
                                     const std::filesystem::path& stage,
                                     const StagingLimits& limits = {});

}  // namespace parlab::grader
