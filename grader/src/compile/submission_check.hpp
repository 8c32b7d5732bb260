#pragma once
// Checks of a submission folder made before anything is built, so a student reads
// "kernels.cu is missing; did you mean kernel.cu?" rather than a compile error, and
// learns that a helper.cpp they added will not be compiled. Only names are read here;
// the files' contents are read by the stager (submission_stager.hpp), never trusted.
#include <filesystem>
#include <string>
#include <vector>

#include "result/result.hpp"

namespace parlab::grader {

struct MissingSource {
  std::string name;          // a file the lab requires, e.g. "kernels.cu"
  std::string did_you_mean;  // the folder's closest name ("kernel.cu"), or empty
};

struct SubmissionCheck {
  std::vector<MissingSource> missing;
  // Source files present but not in the lab's list, sub-folders' too ("kernels/old.cu").
  std::vector<std::string> not_compiled;
  bool ok() const { return missing.empty(); }
};

// Throws UsageError (exit 2) when `submission` does not exist or is not a folder (a
// file given instead of its folder is explained as such).
void require_submission_folder(const std::filesystem::path& submission);

// The lab's `sources` against the folder's file names. Never throws for the folder's
// content; an unreadable folder reports every source missing.
SubmissionCheck check_submission(const std::filesystem::path& submission,
                                 const std::vector<std::string>& sources);

// The check as compiler-style diagnostics for the build result: an error per missing
// file (with the did-you-mean), a warning per file that will not be compiled.
std::vector<Diagnostic> submission_check_diagnostics(const SubmissionCheck& check,
                                                     const std::filesystem::path& submission,
                                                     const std::string& lab_id,
                                                     const std::vector<std::string>& sources,
                                                     const std::string& skeleton_hint);

// Edit distance (insert, delete, substitute one character), for did-you-mean.
std::size_t edit_distance(const std::string& a, const std::string& b);

}  // namespace parlab::grader
